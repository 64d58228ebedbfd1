-- A row of usage may count several events of its kind: a batch's received messages are one row, not one per message.
ALTER TABLE "usage_events" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;
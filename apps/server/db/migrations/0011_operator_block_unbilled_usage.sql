ALTER TABLE "usage_events" ADD COLUMN "unbilled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_templates" ADD COLUMN "operator_rejection_reason" text;
ALTER TABLE "jobs" ADD COLUMN "order_key" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "jobs_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "jobs_order_key_idx" ON "jobs" USING btree ("order_key","seq") WHERE status in ('pending', 'running') and order_key is not null;--> statement-breakpoint
-- Wakes the queues of every process when jobs are committed: NOTIFY is delivered at commit, once per
-- transaction however many rows it inserted (identical notifications are folded), and never on a rollback. The
-- payload names the enqueuing connection's application, so a process skips its own (it woke its queue already).
CREATE OR REPLACE FUNCTION jobs_notify_enqueued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('jobs_enqueued', coalesce(current_setting('application_name', true), ''));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER jobs_enqueued AFTER INSERT ON "jobs" FOR EACH STATEMENT EXECUTE FUNCTION jobs_notify_enqueued();

-- Leaner writes for the webhook ingest (decision 0020): the intake keeps no reference to the company nor an index of due
-- times, a message refers to its company only through its card, and only messages with a WhatsApp id are indexed by it.
ALTER TABLE "messages" DROP CONSTRAINT "messages_tenant_id_tenants_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_intake" DROP CONSTRAINT "webhook_intake_tenant_id_tenants_id_fk";
--> statement-breakpoint
DROP INDEX "webhook_intake_due_idx";--> statement-breakpoint
DROP INDEX "messages_whatsapp_id_idx";--> statement-breakpoint
CREATE INDEX "messages_whatsapp_id_idx" ON "messages" USING btree ("tenant_id","whatsapp_message_id") WHERE whatsapp_message_id is not null;
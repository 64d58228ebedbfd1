CREATE TABLE "webhook_delivery_hours" (
	"tenant_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"deliveries" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_delivery_hours_tenant_id_hour_kind_pk" PRIMARY KEY("tenant_id","hour","kind")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "tenant_id" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "webhook_rejections" ADD COLUMN "kind" text DEFAULT 'malformed' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_delivery_hours" ADD CONSTRAINT "webhook_delivery_hours_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_tenant_failed_idx" ON "jobs" USING btree ("tenant_id","completed_at") WHERE status = 'failed';--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("completed_at") WHERE status in ('completed', 'failed');--> statement-breakpoint
CREATE INDEX "messages_failed_idx" ON "messages" USING btree ("tenant_id","created_at") WHERE ack = -1;
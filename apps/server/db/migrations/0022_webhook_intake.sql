CREATE TABLE "webhook_intake" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"body" "bytea" NOT NULL,
	"body_hash" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"process_after" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"request_id" text
);
--> statement-breakpoint
ALTER TABLE "webhook_intake" ADD CONSTRAINT "webhook_intake_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_intake_tenant_body_key" ON "webhook_intake" USING btree ("tenant_id","body_hash");--> statement-breakpoint
CREATE INDEX "webhook_intake_due_idx" ON "webhook_intake" USING btree ("tenant_id","process_after","id");
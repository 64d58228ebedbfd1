CREATE TABLE "batch_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"position" integer,
	"phone" text,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text NOT NULL,
	"error_reason" text,
	"card_id" uuid,
	"message_id" uuid
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"funnel_id" uuid NOT NULL,
	"target_column_id" uuid,
	"template_id" uuid,
	"template_name" text NOT NULL,
	"user_id" uuid,
	"user_name" text NOT NULL,
	"file_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_recipients" ADD CONSTRAINT "batch_recipients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_recipients" ADD CONSTRAINT "batch_recipients_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_recipients" ADD CONSTRAINT "batch_recipients_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_recipients" ADD CONSTRAINT "batch_recipients_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_funnel_id_funnels_id_fk" FOREIGN KEY ("funnel_id") REFERENCES "public"."funnels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_target_column_id_board_columns_id_fk" FOREIGN KEY ("target_column_id") REFERENCES "public"."board_columns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_template_id_message_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."message_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "batch_recipients_batch_row_key" ON "batch_recipients" USING btree ("batch_id","row_number");--> statement-breakpoint
CREATE UNIQUE INDEX "batch_recipients_batch_phone_key" ON "batch_recipients" USING btree ("batch_id","phone");--> statement-breakpoint
CREATE INDEX "batch_recipients_batch_position_idx" ON "batch_recipients" USING btree ("batch_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "batch_recipients_message_key" ON "batch_recipients" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "batch_recipients_card_idx" ON "batch_recipients" USING btree ("tenant_id","card_id");--> statement-breakpoint
CREATE INDEX "batches_tenant_time_idx" ON "batches" USING btree ("tenant_id","created_at");
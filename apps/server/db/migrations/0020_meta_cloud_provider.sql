ALTER TABLE "messages" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "provider" text DEFAULT 'gupshup' NOT NULL;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "meta_phone_number_id" text;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "meta_waba_id" text;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "meta_access_token" text;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "meta_app_secret" text;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "meta_verify_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_settings_meta_phone_number_id_key" ON "provider_settings" USING btree ("meta_phone_number_id");
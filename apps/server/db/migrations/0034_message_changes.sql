-- Issue 43: reactions, edits and deletions change a message; ad referrals stay on the card; customers opt out of marketing;
-- the number's quality and messaging limit as the provider reports them.
ALTER TABLE "cards" ADD COLUMN "ad_referral" jsonb;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "marketing_opted_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "reactions" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "edit_history" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "opt_out_keywords" jsonb;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "number_quality" text;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "number_daily_limit" integer;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "number_event" text;--> statement-breakpoint
ALTER TABLE "provider_settings" ADD COLUMN "number_event_at" timestamp with time zone;
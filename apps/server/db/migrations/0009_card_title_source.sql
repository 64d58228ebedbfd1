ALTER TABLE "cards" ADD COLUMN "title_source" text DEFAULT 'phone' NOT NULL;--> statement-breakpoint
ALTER TABLE "batch_recipients" ADD COLUMN "contact_name" text;--> statement-breakpoint
-- Chats named before the source was kept: whatever is not the phone may have been typed by hand, so it stays.
UPDATE "cards" SET "title_source" = 'hand' WHERE "title" <> "phone";

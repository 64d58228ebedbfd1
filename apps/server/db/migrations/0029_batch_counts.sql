-- The dashboard keeps each batch's last recount, and recounts only batches whose counts may have moved since (issue 16).
ALTER TABLE "batches" ADD COLUMN "changes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "counts" jsonb;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "counted_changes" bigint;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "counted_at" timestamp with time zone;
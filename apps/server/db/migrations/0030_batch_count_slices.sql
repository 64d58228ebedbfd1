-- The dashboard keeps its counts per slice of a batch's rows (1,000 rows of the file each), so a read recounts only the
-- slices something moved (issue 16, decision 0022). Every existing batch gets its slices, to be counted at the next read.
CREATE TABLE "batch_count_slices" (
	"batch_id" uuid NOT NULL,
	"slice" integer NOT NULL,
	"changes" bigint DEFAULT 0 NOT NULL,
	"counts" jsonb,
	"counted_changes" bigint,
	"counted_at" timestamp with time zone,
	CONSTRAINT "batch_count_slices_batch_id_slice_pk" PRIMARY KEY("batch_id","slice")
);
--> statement-breakpoint
ALTER TABLE "batch_count_slices" ADD CONSTRAINT "batch_count_slices_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "batch_count_slices" ("batch_id", "slice") SELECT DISTINCT "batch_id", "row_number" / 1000 FROM "batch_recipients";--> statement-breakpoint
ALTER TABLE "batches" DROP COLUMN "changes";--> statement-breakpoint
ALTER TABLE "batches" DROP COLUMN "counts";--> statement-breakpoint
ALTER TABLE "batches" DROP COLUMN "counted_changes";--> statement-breakpoint
ALTER TABLE "batches" DROP COLUMN "counted_at";
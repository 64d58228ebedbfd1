CREATE TABLE "sandbox_phone_uploads" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"upload_id" text NOT NULL,
	"content_type" text NOT NULL,
	"file_name" text,
	"data" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_phone_uploads_upload_id_key" ON "sandbox_phone_uploads" USING btree ("upload_id");
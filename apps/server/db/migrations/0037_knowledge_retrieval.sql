-- Issue 44: knowledge that is found. Whole files kept (the whole-file rule, the dialog's state); passages with word
-- features for the lexical half and vectors for the vector half; pgvector where the database has it.
CREATE TABLE "knowledge_files" (
	"tenant_id" uuid NOT NULL,
	"file_path" text NOT NULL,
	"file_name" text NOT NULL,
	"text" text NOT NULL,
	"passages" integer NOT NULL,
	"state" text NOT NULL,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "knowledge_files_tenant_id_file_path_pk" PRIMARY KEY("tenant_id","file_path")
);
--> statement-breakpoint
DROP INDEX "knowledge_chunks_search_idx";--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "terms" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "embedding" real[];--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD COLUMN "embedding_model" text;--> statement-breakpoint
ALTER TABLE "knowledge_files" ADD CONSTRAINT "knowledge_files_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_chunks_terms_idx" ON "knowledge_chunks" USING gin ("terms");--> statement-breakpoint
-- Files indexed before this migration: their text rebuilt from their passages (which did not overlap); the knowledge upkeep job indexes them again.
INSERT INTO "knowledge_files" ("tenant_id", "file_path", "file_name", "text", "passages", "state")
SELECT "tenant_id", "file_path", min("file_name"), string_agg("text", E'\n' ORDER BY "position"), count(*), 'indexing' FROM "knowledge_chunks" GROUP BY "tenant_id", "file_path";--> statement-breakpoint
-- pgvector where this server has it and lets this user install it; vectors are scored as arrays otherwise.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    CREATE EXTENSION IF NOT EXISTS vector;
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pgvector is available but this user may not install it: knowledge vectors are scored as arrays';
END $$;

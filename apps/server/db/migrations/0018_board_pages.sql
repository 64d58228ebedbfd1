DROP INDEX "cards_column_idx";--> statement-breakpoint
CREATE INDEX "cards_column_idx" ON "cards" USING btree ("tenant_id","column_id","last_activity_at","id");
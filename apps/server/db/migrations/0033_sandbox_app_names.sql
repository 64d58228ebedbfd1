ALTER TABLE "provider_settings" ADD COLUMN "sandbox_app_name" text;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_settings_sandbox_app_name_key" ON "provider_settings" USING btree ("sandbox_app_name");--> statement-breakpoint
-- Companies from before keep the sandbox app they had (sandbox-{slug}), and with it their sandbox phone's history.
UPDATE "provider_settings" SET "sandbox_app_name" = 'sandbox-' || "tenants"."slug" FROM "tenants" WHERE "tenants"."id" = "provider_settings"."tenant_id";

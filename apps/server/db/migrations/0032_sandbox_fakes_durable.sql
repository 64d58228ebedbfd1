CREATE TABLE "sandbox_fake_statuses" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"fake" text NOT NULL,
	"message_id" text NOT NULL,
	"step" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_fake_templates" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"fake" text NOT NULL,
	"owner" text NOT NULL,
	"template_id" text NOT NULL,
	"template" jsonb NOT NULL,
	"review_due_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_fake_statuses_step_key" ON "sandbox_fake_statuses" USING btree ("fake","message_id","step");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_fake_templates_template_key" ON "sandbox_fake_templates" USING btree ("fake","template_id");
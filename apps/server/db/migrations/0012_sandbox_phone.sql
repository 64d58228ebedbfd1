CREATE TABLE "sandbox_phone_messages" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"whatsapp_id" text,
	"app_name" text NOT NULL,
	"conversation" text NOT NULL,
	"direction" text NOT NULL,
	"type" text NOT NULL,
	"body" jsonb NOT NULL,
	"status" text NOT NULL,
	"participant" jsonb,
	"template" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_phone_messages_message_id_key" ON "sandbox_phone_messages" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "sandbox_phone_messages_conversation_idx" ON "sandbox_phone_messages" USING btree ("app_name","conversation","seq");
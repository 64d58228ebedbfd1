-- Issue 44: the column assistant's tool calls by (answered message, call index), so a retried answer never acts twice and a dropped one undoes what it did.
CREATE TABLE "ai_tool_calls" (
	"tenant_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"answer_message_id" uuid NOT NULL,
	"call_index" integer NOT NULL,
	"tool_name" text NOT NULL,
	"args_hash" text NOT NULL,
	"state" text NOT NULL,
	"outcome" jsonb,
	"effect" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_tool_calls_answer_message_id_call_index_pk" PRIMARY KEY("answer_message_id","call_index")
);
--> statement-breakpoint
ALTER TABLE "ai_tool_calls" ADD CONSTRAINT "ai_tool_calls_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_tool_calls" ADD CONSTRAINT "ai_tool_calls_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_tool_calls_card_idx" ON "ai_tool_calls" USING btree ("card_id");
CREATE TABLE "send_buckets" (
	"tenant_id" uuid NOT NULL,
	"sending_number" text NOT NULL,
	"current_rate" double precision NOT NULL,
	"tokens" double precision NOT NULL,
	"refilled_at" timestamp with time zone NOT NULL,
	"rate_changed_at" timestamp with time zone NOT NULL,
	"slowed_at" timestamp with time zone,
	CONSTRAINT "send_buckets_tenant_id_sending_number_pk" PRIMARY KEY("tenant_id","sending_number")
);
--> statement-breakpoint
CREATE TABLE "send_rates" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"messages_per_second" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "send_buckets" ADD CONSTRAINT "send_buckets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_rates" ADD CONSTRAINT "send_rates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
CREATE TABLE "event_deliveries" (
	"listener" text NOT NULL,
	"event_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_deliveries_listener_event_id_pk" PRIMARY KEY("listener","event_id")
);

CREATE TABLE "ticket_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_pk" text NOT NULL,
	"kind" text NOT NULL,
	"batch_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_events" ADD CONSTRAINT "ticket_events_ticket_pk_tickets_id_fk" FOREIGN KEY ("ticket_pk") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_events_ticket_idx" ON "ticket_events" USING btree ("ticket_pk","at");
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "request_headers" jsonb;

CREATE TABLE "ticket_batch_items" (
	"batch_id" text NOT NULL,
	"position" integer NOT NULL,
	"ticket_id" text NOT NULL,
	"service_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"errors" jsonb,
	CONSTRAINT "ticket_batch_items_batch_id_position_pk" PRIMARY KEY("batch_id","position")
);
--> statement-breakpoint
CREATE TABLE "ticket_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer NOT NULL,
	"imported" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"event_pk" text NOT NULL,
	"show_pk" text NOT NULL,
	"ticket_option_id" text NOT NULL,
	"price_type_id" text,
	"currency" text NOT NULL,
	"price_minor" bigint,
	"buyer" jsonb NOT NULL,
	"buyer_email" text,
	"data" jsonb NOT NULL,
	"status" text DEFAULT 'VALID' NOT NULL,
	"invalidated_at" timestamp with time zone,
	"admitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_batch_items" ADD CONSTRAINT "ticket_batch_items_batch_id_ticket_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."ticket_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_batches" ADD CONSTRAINT "ticket_batches_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_event_pk_events_id_fk" FOREIGN KEY ("event_pk") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_show_pk_shows_id_fk" FOREIGN KEY ("show_pk") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_batches_partner_idx" ON "ticket_batches" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_partner_ticket_idx" ON "tickets" USING btree ("partner_id","ticket_id");--> statement-breakpoint
CREATE INDEX "tickets_show_idx" ON "tickets" USING btree ("show_pk");--> statement-breakpoint
CREATE INDEX "tickets_buyer_email_idx" ON "tickets" USING btree ("partner_id","buyer_email");
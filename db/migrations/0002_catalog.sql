CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"external_reference_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"location" jsonb NOT NULL,
	"configuration" jsonb NOT NULL,
	"producers" jsonb,
	"seating" jsonb,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_types" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"show_pk" text NOT NULL,
	"price_type_id" text NOT NULL,
	"position" integer NOT NULL,
	"legacy_id" jsonb,
	"title" text,
	"description" text,
	"web_visibility" boolean DEFAULT true NOT NULL,
	"web_sold_out" boolean,
	"stock" integer,
	"invisible" boolean DEFAULT false NOT NULL,
	"inventory" jsonb
);
--> statement-breakpoint
CREATE TABLE "shows" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"event_id" text NOT NULL,
	"show_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"date" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"primary_sales_url" text,
	"status" text DEFAULT 'LIVE' NOT NULL,
	"images" jsonb NOT NULL,
	"configuration" jsonb NOT NULL,
	"location" jsonb,
	"show_rescheduled" boolean DEFAULT false NOT NULL,
	"resale_enabled" boolean DEFAULT true NOT NULL,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ticket_options" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"show_pk" text NOT NULL,
	"ticket_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"currency" text NOT NULL,
	"price_minor" bigint,
	"stock" integer,
	"web_visibility" boolean DEFAULT true NOT NULL,
	"web_sold_out" boolean,
	"area" text
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_types" ADD CONSTRAINT "price_types_show_pk_shows_id_fk" FOREIGN KEY ("show_pk") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shows" ADD CONSTRAINT "shows_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shows" ADD CONSTRAINT "shows_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_options" ADD CONSTRAINT "ticket_options_show_pk_shows_id_fk" FOREIGN KEY ("show_pk") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_partner_ref_idx" ON "events" USING btree ("partner_id","external_reference_id");--> statement-breakpoint
CREATE UNIQUE INDEX "price_types_show_price_type_idx" ON "price_types" USING btree ("show_pk","price_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shows_partner_show_idx" ON "shows" USING btree ("partner_id","show_id");--> statement-breakpoint
CREATE INDEX "shows_event_idx" ON "shows" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_options_show_ticket_idx" ON "ticket_options" USING btree ("show_pk","ticket_id");
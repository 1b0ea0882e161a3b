CREATE TABLE "inventories" (
	"partner_id" text NOT NULL,
	"event_pk" text NOT NULL,
	"show_pk" text DEFAULT '' NOT NULL,
	"ticket_option_id" text DEFAULT '' NOT NULL,
	"price_type_id" text DEFAULT '' NOT NULL,
	"capacity" integer,
	"released_tickets" integer,
	"reserved_space" integer,
	"sold_out" boolean,
	"sold_percentage" real,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inventories" ADD CONSTRAINT "inventories_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventories" ADD CONSTRAINT "inventories_event_pk_events_id_fk" FOREIGN KEY ("event_pk") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inventories_scope_idx" ON "inventories" USING btree ("event_pk","show_pk","ticket_option_id","price_type_id");
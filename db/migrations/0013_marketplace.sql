CREATE TABLE "buy_intentions" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"buyer_email" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"listing_ids" text[] NOT NULL,
	"currency" text NOT NULL,
	"subtotal_minor" bigint NOT NULL,
	"buyer_fee_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "listing_items" (
	"listing_id" text NOT NULL,
	"ticket_pk" text NOT NULL,
	"partner_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"seating" jsonb,
	"open" boolean DEFAULT true NOT NULL,
	CONSTRAINT "listing_items_listing_id_ticket_pk_pk" PRIMARY KEY("listing_id","ticket_pk")
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"event_pk" text NOT NULL,
	"show_pk" text NOT NULL,
	"ticket_option_id" text NOT NULL,
	"price_type_id" text,
	"seller_email" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"currency" text NOT NULL,
	"price_minor" bigint NOT NULL,
	"ticket_count" integer NOT NULL,
	"order_id" text,
	"reserved_by" text,
	"sold_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_settings" (
	"partner_id" text PRIMARY KEY NOT NULL,
	"buyer_fee_percent" numeric(7, 4) DEFAULT '0' NOT NULL,
	"buyer_fee_fixed" numeric(14, 4) DEFAULT '0' NOT NULL,
	"seller_fee_percent" numeric(7, 4) DEFAULT '0' NOT NULL,
	"seller_fee_fixed" numeric(14, 4) DEFAULT '0' NOT NULL,
	"payout_delay_days" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "buy_intentions" ADD CONSTRAINT "buy_intentions_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_items" ADD CONSTRAINT "listing_items_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_items" ADD CONSTRAINT "listing_items_ticket_pk_tickets_id_fk" FOREIGN KEY ("ticket_pk") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_event_pk_events_id_fk" FOREIGN KEY ("event_pk") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_show_pk_shows_id_fk" FOREIGN KEY ("show_pk") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_settings" ADD CONSTRAINT "market_settings_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buy_intentions_pending_idx" ON "buy_intentions" USING btree ("expires_at") WHERE "buy_intentions"."status" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "listing_items_open_ticket_idx" ON "listing_items" USING btree ("ticket_pk") WHERE "listing_items"."open";--> statement-breakpoint
CREATE INDEX "listing_items_ticket_idx" ON "listing_items" USING btree ("ticket_pk");--> statement-breakpoint
CREATE INDEX "listings_show_status_idx" ON "listings" USING btree ("show_pk","status");--> statement-breakpoint
CREATE INDEX "listings_partner_status_idx" ON "listings" USING btree ("partner_id","status","created_at");--> statement-breakpoint
CREATE INDEX "tickets_order_idx" ON "tickets" USING btree ("partner_id","order_id") WHERE "tickets"."order_id" is not null;
CREATE TYPE "public"."lead_type" AS ENUM('TICKET_HOLDER', 'ABANDONED_CART', 'VIRTUAL_QUEUE', 'WISHLIST');--> statement-breakpoint
CREATE TABLE "leads" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"type" "lead_type" NOT NULL,
	"external_reference_event_id" text NOT NULL,
	"show_id" text NOT NULL,
	"buyer_key" text NOT NULL,
	"buyer_email" text,
	"buyer_phone" text,
	"buyer_id" text,
	"buyer_full_name" text,
	"ticket_id" text,
	"price" bigint,
	"currency" text,
	"ticket_option_id" text,
	"price_type_id" text,
	"purchase_date" timestamp with time zone,
	"seating" jsonb,
	"metadata" jsonb,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"attributes" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_buyer_show_idx" ON "leads" USING btree ("partner_id","external_reference_event_id","show_id","buyer_key");--> statement-breakpoint
CREATE INDEX "leads_partner_type_idx" ON "leads" USING btree ("partner_id","type");
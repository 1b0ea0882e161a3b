CREATE TABLE "channel_sales" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"channel_listing_id" text NOT NULL,
	"listing_id" text NOT NULL,
	"intention_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"buyer_email" text NOT NULL,
	"quantity" integer NOT NULL,
	"currency" text NOT NULL,
	"price_minor" bigint NOT NULL,
	"paid_minor" bigint NOT NULL,
	"payout_minor" bigint NOT NULL,
	"status" text DEFAULT 'PENDING_FULFILMENT' NOT NULL,
	"fulfil_by" timestamp with time zone NOT NULL,
	"ticket_ids" text[],
	"fulfilled_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "channel_listing_id" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "channel_slot" integer;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "channel_seats" jsonb;--> statement-breakpoint
ALTER TABLE "channel_sales" ADD CONSTRAINT "channel_sales_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sales" ADD CONSTRAINT "channel_sales_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sales" ADD CONSTRAINT "channel_sales_channel_listing_id_channel_listings_id_fk" FOREIGN KEY ("channel_listing_id") REFERENCES "public"."channel_listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_sales_listing_idx" ON "channel_sales" USING btree ("listing_id");--> statement-breakpoint
CREATE INDEX "channel_sales_channel_idx" ON "channel_sales" USING btree ("channel_id","status","created_at");--> statement-breakpoint
CREATE INDEX "channel_sales_due_idx" ON "channel_sales" USING btree ("fulfil_by") WHERE "channel_sales"."status" = 'PENDING_FULFILMENT';--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_channel_listing_id_channel_listings_id_fk" FOREIGN KEY ("channel_listing_id") REFERENCES "public"."channel_listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "listings_channel_slot_idx" ON "listings" USING btree ("channel_listing_id","channel_slot") WHERE "listings"."channel_listing_id" is not null;
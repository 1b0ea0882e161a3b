CREATE TABLE "channels" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"name" text NOT NULL,
	"webhook_url" text,
	"signing_secret" text NOT NULL,
	"payout_account_id" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_listings" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"external_id" text NOT NULL,
	"event_pk" text NOT NULL,
	"show_pk" text NOT NULL,
	"ticket_option_id" text NOT NULL,
	"price_type_id" text,
	"quantity" integer NOT NULL,
	"seats" jsonb,
	"sold_whole" boolean NOT NULL,
	"currency" text NOT NULL,
	"price_minor" bigint NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "channel_id" text;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_listings" ADD CONSTRAINT "channel_listings_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_listings" ADD CONSTRAINT "channel_listings_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_listings" ADD CONSTRAINT "channel_listings_event_pk_events_id_fk" FOREIGN KEY ("event_pk") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_listings" ADD CONSTRAINT "channel_listings_show_pk_shows_id_fk" FOREIGN KEY ("show_pk") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channels_partner_idx" ON "channels" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_listings_external_idx" ON "channel_listings" USING btree ("channel_id","external_id");--> statement-breakpoint
CREATE INDEX "channel_listings_channel_idx" ON "channel_listings" USING btree ("channel_id","status","created_at");--> statement-breakpoint
CREATE INDEX "channel_listings_show_idx" ON "channel_listings" USING btree ("show_pk") WHERE "channel_listings"."status" in ('ACTIVE', 'RESERVED');--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Channels keys made before channels existed belong to the partner: each such partner gets a "Default channel" that takes them.
INSERT INTO "channels" ("id", "partner_id", "name", "signing_secret")
SELECT 'chn_' || replace(gen_random_uuid()::text, '-', ''), p."partner_id", 'Default channel',
  'whsec_' || encode(decode(replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', ''), 'hex'), 'base64')
FROM (SELECT DISTINCT "partner_id" FROM "api_keys" WHERE "kind" = 'channels') p;--> statement-breakpoint
UPDATE "api_keys" k SET "channel_id" = c."id" FROM "channels" c WHERE k."kind" = 'channels' AND c."partner_id" = k."partner_id";

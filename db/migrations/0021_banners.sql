CREATE TABLE "banners" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"event_pk" text,
	"show_pk" text,
	"placement" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"image_url" text,
	"background_color" text,
	"text_color" text,
	"cta_text" text NOT NULL,
	"cta_url" text,
	"cta_enabled" boolean DEFAULT true NOT NULL,
	"cta_background_color" text,
	"cta_text_color" text,
	"only_when_primary_sold_out" boolean DEFAULT false NOT NULL,
	"hours_before_show" integer,
	"only_for_sellers_with_sellable" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_event_pk_events_id_fk" FOREIGN KEY ("event_pk") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_show_pk_shows_id_fk" FOREIGN KEY ("show_pk") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "banners_partner_idx" ON "banners" USING btree ("partner_id","created_at");
CREATE TABLE "ticket_previous_links" (
	"token" text PRIMARY KEY NOT NULL,
	"ticket_pk" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "protection_settings" (
	"scope" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"event_pk" text,
	"show_pk" text,
	"active" boolean,
	"unlock_hours" integer,
	"reissue" boolean,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "reissue_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "reissued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_previous_links" ADD CONSTRAINT "ticket_previous_links_ticket_pk_tickets_id_fk" FOREIGN KEY ("ticket_pk") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protection_settings" ADD CONSTRAINT "protection_settings_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protection_settings" ADD CONSTRAINT "protection_settings_event_pk_events_id_fk" FOREIGN KEY ("event_pk") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protection_settings" ADD CONSTRAINT "protection_settings_show_pk_shows_id_fk" FOREIGN KEY ("show_pk") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_previous_links_ticket_idx" ON "ticket_previous_links" USING btree ("ticket_pk");--> statement-breakpoint
CREATE INDEX "protection_settings_partner_idx" ON "protection_settings" USING btree ("partner_id");--> statement-breakpoint
CREATE INDEX "tickets_reissue_idx" ON "tickets" USING btree ("partner_id","reissue_requested_at") WHERE "tickets"."reissue_requested_at" is not null and "tickets"."reissued_at" is null;
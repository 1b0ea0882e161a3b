CREATE TABLE "combinations" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"show_pk" text NOT NULL,
	"ticket_option_id" text NOT NULL,
	"price_type_id" text NOT NULL,
	"currency" text NOT NULL,
	"price_minor" bigint,
	"description" text
);
--> statement-breakpoint
CREATE TABLE "resale_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"event_pk" text NOT NULL,
	"show_id" text DEFAULT '' NOT NULL,
	"ticket_option_id" text DEFAULT '' NOT NULL,
	"price_type_id" text DEFAULT '' NOT NULL,
	"rule_type" text NOT NULL,
	"rules" jsonb NOT NULL,
	"description" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "combinations" ADD CONSTRAINT "combinations_show_pk_shows_id_fk" FOREIGN KEY ("show_pk") REFERENCES "public"."shows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "resale_rules" ADD CONSTRAINT "resale_rules_event_pk_events_id_fk" FOREIGN KEY ("event_pk") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "combinations_pair_idx" ON "combinations" USING btree ("show_pk","ticket_option_id","price_type_id");--> statement-breakpoint
CREATE UNIQUE INDEX "resale_rules_scope_idx" ON "resale_rules" USING btree ("event_pk","show_id","ticket_option_id","price_type_id","rule_type");
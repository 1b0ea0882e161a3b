DROP INDEX "resale_rules_scope_idx";--> statement-breakpoint
ALTER TABLE "resale_rules" ADD COLUMN "source" text DEFAULT 'PARTNER' NOT NULL;--> statement-breakpoint
ALTER TABLE "resale_rules" ADD COLUMN "updated_by" text;--> statement-breakpoint
CREATE UNIQUE INDEX "resale_rules_scope_idx" ON "resale_rules" USING btree ("event_pk","show_id","ticket_option_id","price_type_id","rule_type","source");
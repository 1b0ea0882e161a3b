ALTER TABLE "partners" ADD COLUMN "mode" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "live_partner_id" text;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_live_partner_id_partners_id_fk" FOREIGN KEY ("live_partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partners_live_partner_idx" ON "partners" USING btree ("live_partner_id");--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_mode_twin_check" CHECK (("partners"."mode" = 'live' and "partners"."live_partner_id" is null) or ("partners"."mode" = 'test' and "partners"."live_partner_id" is not null));--> statement-breakpoint
-- Every live partner gets its test twin (issue 33): same name, mode test, no keys yet (staff create them).
INSERT INTO "partners" ("id", "name", "mode", "live_partner_id")
SELECT 'ptr_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20), "name", 'test', "id"
FROM "partners" WHERE "mode" = 'live';

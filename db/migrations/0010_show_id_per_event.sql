-- A showId is unique within its event, no longer across the partner's events. Existing rows satisfy
-- the new index (they were unique per partner), which also serves lookups by event.
CREATE UNIQUE INDEX "shows_event_show_idx" ON "shows" USING btree ("event_id","show_id");--> statement-breakpoint
DROP INDEX "shows_partner_show_idx";--> statement-breakpoint
DROP INDEX "shows_event_idx";

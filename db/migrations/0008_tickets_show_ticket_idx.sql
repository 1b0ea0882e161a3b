DROP INDEX "tickets_show_idx";--> statement-breakpoint
CREATE INDEX "tickets_show_ticket_idx" ON "tickets" USING btree ("show_pk","ticket_id");
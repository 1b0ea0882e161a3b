-- The sale's face value on its payout (issue 32): the sum of its tickets' face values (each ticket's price as
-- the partner sent it, else its ticket option's), written by the purchase's transaction from now on (a
-- channel's sale when it hands its tickets over). Rows sold before: backfilled exactly where every ticket of
-- the listing has a face value above 0 in the listing's currency; left null otherwise (the overview reads
-- those sales' tickets, as it did for all of them before). The partial index finds the null rows of a range.
ALTER TABLE "payouts" ADD COLUMN "face_minor" bigint;--> statement-breakpoint
UPDATE "payouts" p SET "face_minor" = f."face" FROM (SELECT li."listing_id", sum(coalesce(t."price_minor", o."price_minor")) AS "face" FROM "listing_items" li JOIN "listings" l ON l."id" = li."listing_id" JOIN "tickets" t ON t."id" = li."ticket_pk" LEFT JOIN "ticket_options" o ON o."show_pk" = t."show_pk" AND o."ticket_id" = t."ticket_option_id" GROUP BY li."listing_id", l."ticket_count" HAVING count(*) = l."ticket_count" AND bool_and(coalesce(coalesce(t."price_minor", o."price_minor") > 0 AND t."currency" = l."currency", false))) f WHERE f."listing_id" = p."listing_id";--> statement-breakpoint
CREATE INDEX "payouts_face_unknown_idx" ON "payouts" USING btree ("created_at") WHERE "payouts"."face_minor" is null;

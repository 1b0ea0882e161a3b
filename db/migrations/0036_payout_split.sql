-- The sale's split on its payout (issue 32): gross, buyer fee, Encore's seller fee and the partner's primary
-- fee, written by the purchase's transaction from now on. Rows sold before: gross and buyer fee backfilled
-- (exact: the listing's prices; the purchase's buyer fee on its first listing's payout, 0 on the others),
-- seller and partner fee left null ("not recorded": reconciliation recomputes them, the overview shows
-- their sum apart). Indexes for the staff overview's range scans (index-only for listings and tickets).
ALTER TABLE "payouts" ADD COLUMN "gross_minor" bigint;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "buyer_fee_minor" bigint;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "seller_fee_minor" bigint;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "partner_fee_minor" bigint;--> statement-breakpoint
UPDATE "payouts" p SET "gross_minor" = l."price_minor" * l."ticket_count" FROM "listings" l WHERE l."id" = p."listing_id";--> statement-breakpoint
UPDATE "payouts" p SET "buyer_fee_minor" = CASE WHEN i."listing_ids"[1] = p."listing_id" THEN i."buyer_fee_minor" ELSE 0 END FROM "buy_intentions" i WHERE i."id" = p."intention_id";--> statement-breakpoint
CREATE INDEX "tickets_reissued_idx" ON "tickets" USING btree ("reissued_at","partner_id","event_pk","reissue_requested_at") WHERE "tickets"."reissued_at" is not null;--> statement-breakpoint
CREATE INDEX "listings_sold_idx" ON "listings" USING btree ("sold_at","id","partner_id","event_pk","currency","price_minor","ticket_count","created_at") WHERE "listings"."sold_at" is not null;--> statement-breakpoint
CREATE INDEX "listings_created_idx" ON "listings" USING btree ("created_at","partner_id","event_pk","sold_at");--> statement-breakpoint
CREATE INDEX "payouts_created_idx" ON "payouts" USING btree ("created_at");
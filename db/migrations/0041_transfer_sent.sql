-- What the provider sent for a transfer (issue 43): Stripe pays TWD and HUF out in whole units and KWD in
-- tens of fils, so a payout is rounded down to that before it is sent, and the rest shows in the
-- reconciliation. Transfers paid before: sent as recorded (Stripe took them, or refused them).
ALTER TABLE "transfers" ADD COLUMN "sent_minor" integer;--> statement-breakpoint
UPDATE "transfers" SET "sent_minor" = "amount_minor" WHERE "status" = 'paid';


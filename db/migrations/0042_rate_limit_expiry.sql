-- When a rate-limit window's newest hit leaves its window (issue 43): its rows hold fans' and staff e-mails
-- and client addresses, and were never deleted; `rate-limit.sweepExpired` now deletes them once expired.
-- Rows written before: their newest hit plus the longest window any limit uses (15 minutes); rows with no
-- hit are already empty (the default, now()).
ALTER TABLE "rate_limit_windows" ADD COLUMN "expires_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "rate_limit_windows" SET "expires_at" = to_timestamp("hits"[cardinality("hits")] / 1000.0) + interval '15 minutes' WHERE cardinality("hits") > 0;


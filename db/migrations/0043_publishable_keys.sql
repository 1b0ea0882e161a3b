ALTER TABLE "api_keys" ADD COLUMN "publishable_key" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "widget_origins" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_one_publishable_idx" ON "api_keys" USING btree ("partner_id") WHERE "api_keys"."kind" = 'publishable' and "api_keys"."revoked_at" is null;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_publishable_key_check" CHECK (("api_keys"."kind" = 'publishable') = ("api_keys"."publishable_key" is not null));--> statement-breakpoint
-- Every partner made before gets its publishable key (issue 47), as createPartner now makes one for each new
-- partner row: `pk_live_` or `pk_test_` by its mode, then 32 random characters (a version 4 UUID's hex: 122 bits
-- from PostgreSQL's strong random source), kept whole (it is not a secret) and stored by the SHA-256 hex that
-- authenticates it. gen_random_uuid (PostgreSQL 13) and sha256 (11) are built in: no extension is needed.
INSERT INTO "api_keys" ("id", "partner_id", "kind", "label", "prefix", "hash", "publishable_key")
SELECT 'key_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20), "id", 'publishable', '',
  substr("key", 1, 14), encode(sha256(convert_to("key", 'UTF8')), 'hex'), "key"
FROM (
  SELECT "id", CASE "mode" WHEN 'test' THEN 'pk_test_' ELSE 'pk_live_' END || replace(gen_random_uuid()::text, '-', '') AS "key"
  FROM "partners"
) AS "p";

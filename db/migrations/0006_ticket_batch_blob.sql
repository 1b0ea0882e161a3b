CREATE TABLE "ticket_batch_errors" (
	"batch_id" text NOT NULL,
	"position" integer NOT NULL,
	"ticket_id" text NOT NULL,
	"errors" jsonb NOT NULL,
	CONSTRAINT "ticket_batch_errors_batch_id_position_pk" PRIMARY KEY("batch_id","position")
);
--> statement-breakpoint
ALTER TABLE "ticket_batches" ADD COLUMN "processed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_batches" ADD COLUMN "payload" json;--> statement-breakpoint
ALTER TABLE "ticket_batches" ADD COLUMN "service_ids" json;--> statement-breakpoint
ALTER TABLE "ticket_batch_errors" ADD CONSTRAINT "ticket_batch_errors_batch_id_ticket_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."ticket_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Batches accepted before this change and not completed keep every ticket: their items move into the
-- batch row, the cursor after the items already done (items were imported in position order, a chunk
-- per transaction, so the done ones are a prefix).
UPDATE "ticket_batches" b SET "payload" = i."payload", "service_ids" = i."service_ids", "processed" = i."processed"
FROM (
	SELECT "batch_id",
		json_agg("payload"::json ORDER BY "position") AS "payload",
		json_agg("service_id" ORDER BY "position") AS "service_ids",
		(count(*) FILTER (WHERE "status" <> 'pending'))::int AS "processed"
	FROM "ticket_batch_items" GROUP BY "batch_id"
) i
WHERE i."batch_id" = b."id" AND b."status" <> 'completed';--> statement-breakpoint
INSERT INTO "ticket_batch_errors" ("batch_id", "position", "ticket_id", "errors")
SELECT "batch_id", "position", "ticket_id", coalesce("errors", '[]'::jsonb) FROM "ticket_batch_items" WHERE "status" = 'failed';
--> statement-breakpoint
UPDATE "ticket_batches" SET "processed" = "total" WHERE "status" = 'completed';

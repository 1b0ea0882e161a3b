CREATE TABLE "webhook_due" (
	"message_id" text PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"channel_id" text,
	"due_at" timestamp with time zone NOT NULL,
	"leased_until" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "webhook_messages_due_idx";--> statement-breakpoint
DROP INDEX "webhook_messages_channel_due_idx";--> statement-breakpoint
ALTER TABLE "webhook_messages" ADD COLUMN "delivered_attempt" json;--> statement-breakpoint
ALTER TABLE "webhook_due" ADD CONSTRAINT "webhook_due_message_id_webhook_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."webhook_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_due_partner_idx" ON "webhook_due" USING btree ("partner_id","due_at") WHERE channel_id is null;--> statement-breakpoint
CREATE INDEX "webhook_due_channel_idx" ON "webhook_due" USING btree ("channel_id","due_at") WHERE channel_id is not null;--> statement-breakpoint
-- What was pending is due when its message said (a lease still running stays a lease: a dispatcher's
-- lease was its next_attempt_at).
INSERT INTO "webhook_due" ("message_id", "partner_id", "channel_id", "due_at")
  SELECT "id", "partner_id", "channel_id", "next_attempt_at" FROM "webhook_messages" WHERE "status" = 'pending';--> statement-breakpoint
-- Room on each page for a HOT update: a message's delivery, a due row's lease (new pages only).
ALTER TABLE "webhook_messages" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "webhook_due" SET (fillfactor = 50);

ALTER TABLE "partners" ADD COLUMN "support_url" text;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "support_email" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "code_shown_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "buy_intentions" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "buy_intentions" ADD COLUMN "refund_reason" text;
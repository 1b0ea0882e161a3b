ALTER TABLE "buy_intentions" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "fan_sessions" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "locale" text;
ALTER TABLE "partners" ADD COLUMN "primary_sales_fee" jsonb;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "primary_sales_fee" jsonb;--> statement-breakpoint
ALTER TABLE "shows" ADD COLUMN "primary_sales_fee" jsonb;--> statement-breakpoint
ALTER TABLE "ticket_options" ADD COLUMN "primary_sales_fee" jsonb;
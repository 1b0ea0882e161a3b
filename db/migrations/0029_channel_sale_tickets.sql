CREATE TABLE "channel_sale_tickets" (
	"ticket_pk" text PRIMARY KEY NOT NULL,
	"sale_id" text NOT NULL,
	"partner_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_sale_tickets" ADD CONSTRAINT "channel_sale_tickets_ticket_pk_tickets_id_fk" FOREIGN KEY ("ticket_pk") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sale_tickets" ADD CONSTRAINT "channel_sale_tickets_sale_id_channel_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."channel_sales"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sale_tickets" ADD CONSTRAINT "channel_sale_tickets_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_sale_tickets_sale_idx" ON "channel_sale_tickets" USING btree ("sale_id");--> statement-breakpoint
-- Sales fulfilled before this table: each of their tickets goes to the first sale that handed it over.
INSERT INTO "channel_sale_tickets" ("ticket_pk", "sale_id", "partner_id", "created_at")
SELECT t."id", s."id", s."partner_id", coalesce(s."fulfilled_at", now())
FROM "channel_sales" s
CROSS JOIN LATERAL unnest(s."ticket_ids") AS named("ticket_id")
JOIN "tickets" t ON t."partner_id" = s."partner_id" AND t."ticket_id" = named."ticket_id"
WHERE s."status" = 'FULFILLED'
ORDER BY s."fulfilled_at", s."id"
ON CONFLICT ("ticket_pk") DO NOTHING;

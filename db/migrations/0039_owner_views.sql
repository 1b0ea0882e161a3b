-- Views owners define for other modules' SQL (issue 44: a table is read only through its owner): the
-- partners module's channels that take webhooks (the dispatcher's claim) and the partner's default primary
-- sales fee, the catalog's show/event and ticket option fees (a ticket's fee resolution, one statement).
CREATE VIEW "public"."channel_webhook_endpoints" AS (select id as channel_id, partner_id, webhook_url as url, signing_secret from "channels" where webhook_url is not null and disabled_at is null);--> statement-breakpoint
CREATE VIEW "public"."partner_primary_sales_fees" AS (select id as partner_id, primary_sales_fee as fee from "partners");--> statement-breakpoint
CREATE VIEW "public"."show_primary_sales_fees" AS (select s.id as show_pk, s.primary_sales_fee as show_fee, e.primary_sales_fee as event_fee from "shows" s join "events" e on e.id = s.event_id);--> statement-breakpoint
CREATE VIEW "public"."ticket_option_primary_sales_fees" AS (select show_pk, ticket_id, primary_sales_fee as fee from "ticket_options");
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';

interface WebhookBacklog {
  /** Messages due now whose receiver is enabled: what the dispatcher owes. */
  due: number;
  /** Messages due now held back by a receiver not set up or disabled (waiting by design). */
  held: number;
  /** Seconds since the oldest message in `due` became due; 0 when none is. */
  oldestDueAgeSeconds: number;
}

/**
 * The delivery queue's backlog for the operators' metrics: one pass over the due rows (`webhook_due`,
 * one row per pending message, so small when deliveries keep up). A channel's messages count as
 * deliverable while the channel has a webhook URL and is not disabled, as the dispatcher claims them.
 */
export async function webhookBacklog(db: DbOrTx): Promise<WebhookBacklog> {
  const rows = await db.execute<{ due: number; held: number; age: number | null }>(sql`
    with due as (
      select d.due_at,
        case when d.channel_id is null then coalesce(e.enabled, false) else c.channel_id is not null end
          as deliverable
      from webhook_due d
      left join webhook_endpoints e on d.channel_id is null and e.partner_id = d.partner_id
      left join channel_webhook_endpoints c on c.channel_id = d.channel_id
      where d.due_at <= now())
    select (count(*) filter (where deliverable))::int as due,
      (count(*) filter (where not deliverable))::int as held,
      extract(epoch from now() - min(due_at) filter (where deliverable))::float8 as age
    from due`);
  const [row] = rows;
  return { due: row.due, held: row.held, oldestDueAgeSeconds: Math.max(0, row.age ?? 0) };
}

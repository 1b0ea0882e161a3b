import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db';
import { AppError, type ErrorDetail, formatPath } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { toMinorUnits } from '@/server/lib/money';
import { showDirectory, showOptionCurrencies } from '@/server/modules/catalog';
import { BUYER_REQUIRED, type LeadBody, leadSchema } from './lead-schemas';
import { buyerKeyOf } from './leads';

/*
 * POST /v1/marketdata/ticket-leads (and /users), and their /bulk forms: each lead validated on its own
 * (types and per-type fields, the buyer identifier, the event and show), the valid ones saved in ONE
 * upsert statement keyed by buyer identifier + event + show (spec: a repeat creates no duplicate).
 */

interface Refusal {
  index: number;
  details: ErrorDetail[];
  /** The spec's message for this lead's first problem. */
  message: string;
}

interface Row {
  id: string;
  type: LeadBody['type'];
  event_ref: string;
  show_id: string;
  buyer_key: string;
  buyer_email: string | null;
  buyer_phone: string | null;
  buyer_id: string | null;
  buyer_full_name: string | null;
  ticket_id: string | null;
  price: number | null;
  currency: string | null;
  ticket_option_id: string | null;
  price_type_id: string | null;
  purchase_date: string | null;
  seating: unknown;
  metadata: unknown;
  tags: string[] | null;
  attributes: string[] | null;
}

const prefix = (index: number | null, path: string) =>
  index === null ? path : path ? `[${index}].${path}` : `[${index}]`;

/** Validates every lead; answers the rows to save and the refusals (with their index). */
async function judge(partnerId: string, items: unknown[], single: boolean, db: DbOrTx) {
  const { parsed, refusals } = parseLeads(items, single);
  const shows = await showsNamed(partnerId, parsed, db);
  const rows = new Map<string, Row>();
  for (const { index, lead, buyerKey } of parsed) {
    const judged = judgeLead(shows, lead, buyerKey, index, single ? null : index);
    if ('details' in judged) {
      refusals.push(judged);
      continue;
    }
    const key = `${lead.externalReferenceEventId}\u0000${lead.showId}\u0000${buyerKey}`;
    // The same buyer twice in one request: the later send wins, as two requests would.
    rows.set(key, judged);
  }
  return { rows: [...rows.values()], refusals: refusals.sort((a, b) => a.index - b.index) };
}

interface ParsedLead {
  index: number;
  lead: LeadBody;
  buyerKey: string;
}

/** Each lead read against its schema, with its buyer identified; the others refused. */
function parseLeads(items: unknown[], single: boolean) {
  const refusals: Refusal[] = [];
  const parsed: ParsedLead[] = [];
  items.forEach((raw, index) => {
    const at = single ? null : index;
    const r = leadSchema.safeParse(raw);
    if (!r.success) {
      const details = r.error.issues.map((i) => ({
        path: prefix(at, formatPath(i.path)),
        message: i.message,
        in: 'body' as const,
      }));
      const d = details[0];
      const local = formatPath(r.error.issues[0].path);
      refusals.push({
        index,
        details,
        message: local ? (d.message.startsWith('is ') ? `${local} ${d.message}` : `${local}: ${d.message}`) : d.message,
      });
      return;
    }
    const b = r.data.buyer;
    if (!b.email && !b.phone && !b.id) {
      refusals.push({
        index,
        details: [{ path: prefix(at, 'buyer'), message: BUYER_REQUIRED, in: 'body' }],
        message: BUYER_REQUIRED,
      });
      return;
    }
    parsed.push({ index, lead: r.data, buyerKey: buyerKeyOf(b) });
  });
  return { parsed, refusals };
}

type ShowsNamed = Awaited<ReturnType<typeof showsNamed>>;

/** The events and shows named, in one query; then the currencies of their options, in one more. */
async function showsNamed(partnerId: string, parsed: ParsedLead[], db: DbOrTx) {
  const refs = [...new Set(parsed.map((p) => p.lead.externalReferenceEventId))];
  const directory = showDirectory(db);
  const shows = refs.length
    ? await db
        .select({ eventRef: directory.eventRef, showId: directory.showId, showPk: directory.showPk })
        .from(directory)
        .where(and(eq(directory.partnerId, partnerId), inArray(directory.eventRef, refs)))
    : [];
  return {
    events: new Set(shows.map((s) => s.eventRef)),
    showPk: new Map(shows.map((s) => [`${s.eventRef}\u0000${s.showId}`, s.showPk])),
    currencies: await showOptionCurrencies([...new Set(shows.map((s) => s.showPk))], db),
  };
}

/** One lead: its row, or why it is refused (an unknown event or show, a price its currency cannot hold). */
function judgeLead(
  { events, showPk, currencies }: ShowsNamed,
  lead: LeadBody,
  buyerKey: string,
  index: number,
  at: number | null,
): Row | Refusal {
  const pk = showPk.get(`${lead.externalReferenceEventId}\u0000${lead.showId}`);
  if (!events.has(lead.externalReferenceEventId) || !pk) {
    const eventMissing = !events.has(lead.externalReferenceEventId);
    return {
      index,
      message: eventMissing ? 'Event not found' : 'Show not found',
      details: [
        eventMissing
          ? { path: prefix(at, 'externalReferenceEventId'), message: 'does not match an event', in: 'body' }
          : { path: prefix(at, 'showId'), message: 'does not match a show of the event', in: 'body' },
      ],
    };
  }
  const options = currencies.get(pk) ?? new Map<string, string>();
  const currency =
    lead.currency ??
    (lead.ticketOptionId ? options.get(lead.ticketOptionId) : undefined) ??
    options.values().next().value;
  let price: number | null = null;
  if (lead.price !== undefined) {
    const minor = toMinorUnits(lead.price, currency ?? 'EUR');
    if ('error' in minor) {
      return {
        index,
        message: `price: ${minor.error}`,
        details: [{ path: prefix(at, 'price'), message: minor.error, in: 'body' }],
      };
    }
    price = minor.minor;
  }
  return {
    id: newId('lead'),
    type: lead.type,
    event_ref: lead.externalReferenceEventId,
    show_id: lead.showId,
    buyer_key: buyerKey,
    buyer_email: lead.buyer.email?.toLowerCase() ?? null,
    buyer_phone: lead.buyer.phone ?? null,
    buyer_id: lead.buyer.id ?? null,
    buyer_full_name: lead.buyer.fullName ?? null,
    ticket_id: lead.ticketId ?? null,
    price,
    currency: lead.price !== undefined || lead.currency ? (currency ?? null) : null,
    ticket_option_id: lead.ticketOptionId ?? null,
    price_type_id: lead.priceTypeId ?? null,
    purchase_date: lead.purchaseDate ?? lead.date ?? null,
    seating: lead.seating ?? null,
    metadata: lead.metadata ?? null,
    tags: lead.tags ?? null,
    attributes: lead.attributes ?? null,
  };
}

/**
 * Inserts or updates the leads in one statement (the batch as one JSON parameter). On a repeat, the
 * type and every field sent replace the stored ones; a field left out keeps its value.
 */
async function upsertRows(partnerId: string, rows: Row[], db: DbOrTx): Promise<void> {
  if (!rows.length) return;
  await db.execute(sql`
    insert into leads (id, partner_id, type, external_reference_event_id, show_id, buyer_key, buyer_email, buyer_phone,
      buyer_id, buyer_full_name, ticket_id, price, currency, ticket_option_id, price_type_id, purchase_date, seating,
      metadata, tags, attributes)
    select id, ${partnerId}, type::lead_type, event_ref, show_id, buyer_key, buyer_email, buyer_phone, buyer_id,
      buyer_full_name, ticket_id, price, currency, ticket_option_id, price_type_id, purchase_date, seating, metadata,
      coalesce(tags, '{}'), coalesce(attributes, '{}')
    from json_to_recordset(${JSON.stringify(rows)}::json) as v(id text, type text, event_ref text, show_id text,
      buyer_key text, buyer_email text, buyer_phone text, buyer_id text, buyer_full_name text, ticket_id text,
      price bigint, currency text, ticket_option_id text, price_type_id text, purchase_date timestamptz, seating jsonb,
      metadata jsonb, tags text[], attributes text[])
    on conflict (partner_id, external_reference_event_id, show_id, buyer_key) do update set
      type = excluded.type,
      buyer_email = coalesce(excluded.buyer_email, leads.buyer_email),
      buyer_phone = coalesce(excluded.buyer_phone, leads.buyer_phone),
      buyer_id = coalesce(excluded.buyer_id, leads.buyer_id),
      buyer_full_name = coalesce(excluded.buyer_full_name, leads.buyer_full_name),
      ticket_id = coalesce(excluded.ticket_id, leads.ticket_id),
      price = coalesce(excluded.price, leads.price),
      currency = coalesce(excluded.currency, leads.currency),
      ticket_option_id = coalesce(excluded.ticket_option_id, leads.ticket_option_id),
      price_type_id = coalesce(excluded.price_type_id, leads.price_type_id),
      purchase_date = coalesce(excluded.purchase_date, leads.purchase_date),
      seating = coalesce(excluded.seating, leads.seating),
      metadata = coalesce(excluded.metadata, leads.metadata),
      tags = case when excluded.tags = '{}' then leads.tags else excluded.tags end,
      attributes = case when excluded.attributes = '{}' then leads.attributes else excluded.attributes end,
      updated_at = now()`);
}

/** `POST /v1/marketdata/ticket-leads` (and `/users`): one lead; 400/404 with the spec's messages. */
export async function saveLead(partnerId: string, body: unknown, db: DbOrTx): Promise<true> {
  const { rows, refusals } = await judge(partnerId, [body], true, db);
  if (refusals.length) {
    const r = refusals[0];
    const notFound = r.message === 'Event not found' || r.message === 'Show not found';
    throw new AppError(notFound ? 'NOT_FOUND' : 'VALIDATION_FAILED', r.message, { details: r.details });
  }
  await upsertRows(partnerId, rows, db);
  return true;
}

/**
 * `POST /v1/marketdata/ticket-leads/bulk` (and `/users/bulk`): up to 1,000 leads of mixed types. The
 * valid ones are saved; when some are refused the answer is a 400 saying how many were stored and
 * naming each refused lead by its index, field and reason (a partner re-sends only those).
 */
export async function saveLeads(partnerId: string, items: unknown[], db: DbOrTx): Promise<true> {
  const { rows, refusals } = await judge(partnerId, items, false, db);
  await upsertRows(partnerId, rows, db);
  if (refusals.length) {
    const stored = items.length - refusals.length;
    throw new AppError(
      'VALIDATION_FAILED',
      `${refusals.length} of ${items.length} leads were refused (${refusals
        .slice(0, 3)
        .map((r) => `[${r.index}] ${r.message}`)
        .join('; ')}${refusals.length > 3 ? '; …' : ''}); the other ${stored} were stored`,
      { details: refusals.flatMap((r) => r.details) },
    );
  }
  return true;
}

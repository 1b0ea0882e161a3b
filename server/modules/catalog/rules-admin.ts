import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/db';
import { events, priceTypes, resaleRules, shows, ticketOptions } from '@/db/schema/catalog';
import { AppError, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { outranks, pickResaleRules, type ResaleRuleRow, RULE_KEY } from './rules';
import { type ResaleRuleType, resaleRuleBodies } from './rules-schemas';

/*
 * The eligibility rules editor (dashboard): staff see every resale rule of a partner's event — the
 * partner's own (POST /v1/events/rules) and staff's — and set or remove staff rules, which win over the
 * partner's at the same scope. "Why is this ticket not sellable?" reads the same rows (`rulesForScope`).
 */

const RESALE_RULE_TYPES = Object.keys(resaleRuleBodies) as ResaleRuleType[];
const optionalId = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string().trim().min(1).max(200).optional(),
);

export const staffRuleInput = z.object({
  partnerId: z.string().min(1),
  eventRef: z.string().trim().min(1, 'Choose the event').max(200),
  showId: optionalId,
  ticketOptionId: optionalId,
  priceTypeId: optionalId,
  ruleType: z.enum(RESALE_RULE_TYPES as [ResaleRuleType, ...ResaleRuleType[]]),
  rules: z.record(z.string(), z.unknown()),
  description: z.string().trim().max(300).optional(),
});
export type StaffRuleInput = z.output<typeof staffRuleInput>;

async function eventOf(partnerId: string, eventRef: string, db: DbOrTx) {
  const [event] = await db
    .select({ id: events.id, title: events.title })
    .from(events)
    .where(and(eq(events.partnerId, partnerId), eq(events.externalReferenceId, eventRef)));
  if (!event)
    throw new AppError('VALIDATION_FAILED', 'No such event', {
      details: [{ path: 'eventRef', message: 'No event of this partner has this externalReferenceId' }],
    });
  return event;
}

/** Every resale rule of an event (both sources), scope by scope, each marked with what it overrides. */
export async function eventRules(partnerId: string, eventRef: string, db: DbOrTx) {
  const event = await eventOf(partnerId, eventRef, db);
  const [rows, showRows] = await Promise.all([
    db
      .select()
      .from(resaleRules)
      .where(and(eq(resaleRules.partnerId, partnerId), eq(resaleRules.eventPk, event.id)))
      .orderBy(
        asc(resaleRules.showId),
        asc(resaleRules.ticketOptionId),
        asc(resaleRules.priceTypeId),
        asc(resaleRules.ruleType),
        asc(resaleRules.source),
      ),
    db
      .select({ pk: shows.id, showId: shows.showId, title: shows.title })
      .from(shows)
      .where(eq(shows.eventId, event.id)),
  ]);
  const pks = showRows.map((s) => s.pk);
  const [options, types] = pks.length
    ? await Promise.all([
        db
          .select({ showPk: ticketOptions.showPk, id: ticketOptions.ticketId, title: ticketOptions.title })
          .from(ticketOptions)
          .where(inArray(ticketOptions.showPk, pks)),
        db
          .select({ showPk: priceTypes.showPk, id: priceTypes.priceTypeId, title: priceTypes.title })
          .from(priceTypes)
          .where(inArray(priceTypes.showPk, pks)),
      ])
    : [[], []];
  return {
    event: { ref: eventRef, title: event.title },
    shows: showRows.map((s) => ({
      showId: s.showId,
      title: s.title,
      ticketOptions: options.filter((o) => o.showPk === s.pk).map((o) => ({ id: o.id, title: o.title })),
      priceTypes: types.filter((t) => t.showPk === s.pk).map((t) => ({ id: t.id, title: t.title })),
    })),
    rules: rows.map((r) => ({
      id: r.id,
      showId: r.showId || null,
      ticketOptionId: r.ticketOptionId || null,
      priceTypeId: r.priceTypeId || null,
      ruleType: r.ruleType,
      rules: r.rules as Record<string, unknown>,
      description: r.description,
      source: r.source,
      updatedBy: r.updatedBy,
      updatedAt: r.updatedAt,
      /** A partner rule a staff rule of the same scope and type replaces. */
      overridden:
        r.source === 'PARTNER' &&
        rows.some(
          (o) =>
            o.source === 'STAFF' &&
            o.ruleType === r.ruleType &&
            o.showId === r.showId &&
            o.ticketOptionId === r.ticketOptionId &&
            o.priceTypeId === r.priceTypeId,
        ),
    })),
  };
}

/** Sets a staff rule (one per scope and type: setting it again replaces it), checked like the API's. */
export async function saveStaffRule(input: StaffRuleInput, staffEmail: string, db: DbOrTx) {
  const event = await eventOf(input.partnerId, input.eventRef, db);
  if ((input.ticketOptionId || input.priceTypeId) && !input.showId)
    throw new AppError('VALIDATION_FAILED', 'Choose the show of this ticket option or price type', {
      details: [{ path: 'showId', message: 'Choose the show of this ticket option or price type' }],
    });
  if (input.showId) {
    const [show] = await db
      .select({ pk: shows.id })
      .from(shows)
      .where(and(eq(shows.eventId, event.id), eq(shows.showId, input.showId)));
    if (!show)
      throw new AppError('VALIDATION_FAILED', 'No such show', {
        details: [{ path: 'showId', message: 'The event has no show with this showId' }],
      });
    const check = async (table: typeof ticketOptions | typeof priceTypes, id: string | undefined, path: string) => {
      if (!id) return;
      const column = table === ticketOptions ? ticketOptions.ticketId : priceTypes.priceTypeId;
      const [found] = await db
        .select({ id: column })
        .from(table)
        .where(and(eq(table.showPk, show.pk), eq(column, id)));
      if (!found)
        throw new AppError(
          'VALIDATION_FAILED',
          `No such ${path === 'ticketOptionId' ? 'ticket option' : 'price type'}`,
          {
            details: [
              { path, message: `The show has no ${path === 'ticketOptionId' ? 'ticket option' : 'price type'} ${id}` },
            ],
          },
        );
    };
    await check(ticketOptions, input.ticketOptionId, 'ticketOptionId');
    await check(priceTypes, input.priceTypeId, 'priceTypeId');
  }
  const body = resaleRuleBodies[input.ruleType].safeParse(input.rules);
  if (!body.success)
    throw new AppError('VALIDATION_FAILED', body.error.issues[0].message, {
      details: body.error.issues.map((i) => ({ path: `rules.${i.path.join('.')}`, message: i.message })),
    });
  const scope = {
    eventPk: event.id,
    showId: input.showId ?? '',
    ticketOptionId: input.ticketOptionId ?? '',
    priceTypeId: input.priceTypeId ?? '',
  };
  const [row] = await db
    .insert(resaleRules)
    .values({
      id: newId('rul'),
      partnerId: input.partnerId,
      ...scope,
      ruleType: input.ruleType,
      rules: body.data,
      description: input.description || null,
      source: 'STAFF',
      updatedBy: staffEmail,
    })
    .onConflictDoUpdate({
      target: RULE_KEY,
      set: { rules: body.data, description: input.description || null, updatedBy: staffEmail, updatedAt: sql`now()` },
    })
    .returning();
  return row;
}

/** Removes a staff rule (the partner's rule of that scope, if any, applies again). Partner rules stay the partner's. */
export async function deleteStaffRule(partnerId: string, ruleId: string, db: DbOrTx) {
  const gone = await db
    .delete(resaleRules)
    .where(and(eq(resaleRules.id, ruleId), eq(resaleRules.partnerId, partnerId), eq(resaleRules.source, 'STAFF')))
    .returning();
  if (!gone.length) throw notFound('Staff rule not found');
  return gone[0];
}

/** For one ticket's scope: per rule type, every rule that applies and the one that wins. */
export function explainRules(
  rows: readonly ResaleRuleRow[],
  scope: { eventPk: string; showId: string; ticketOptionId: string; priceTypeId: string | null },
) {
  const types = [...new Set(rows.map((r) => r.ruleType))].filter((t) => t !== 'COMBINATION').sort();
  return types.map((ruleType) => {
    const candidates = rows.filter(
      (r) => r.ruleType === ruleType && Object.keys(pickResaleRules([r], scope)).length > 0,
    );
    let winner: ResaleRuleRow | null = null;
    for (const c of candidates) if (!winner || outranks(c, winner)) winner = c;
    const view = (r: ResaleRuleRow) => ({
      id: r.id,
      source: r.source,
      scope:
        [
          r.showId && `show ${r.showId}`,
          r.ticketOptionId && `option ${r.ticketOptionId}`,
          r.priceTypeId && `price type ${r.priceTypeId}`,
        ]
          .filter(Boolean)
          .join(' · ') || 'event',
      rules: r.rules as Record<string, unknown>,
    });
    return { ruleType, winner: winner ? view(winner) : null, candidates: candidates.map(view) };
  });
}

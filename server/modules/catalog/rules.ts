import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/db';
import { combinations, events, priceTypes, resaleRules, shows, ticketOptions } from '@/db/schema/catalog';
import { AppError, type ErrorDetail, notFound } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { toMinorUnits } from '@/server/lib/money';
import { type ResaleRuleType, type RuleItem, resaleRuleBodies } from './rules-schemas';

/**
 * POST /v1/events/rules: applies every rule of the request or none. Ids are checked against the
 * event they name: the show must belong to it, the ticket option and price type to that show.
 * Re-sending a rule for the same scope and type replaces it (no duplicates).
 */
export async function applyRules(partnerId: string, items: RuleItem[], db: DbOrTx) {
  return db.transaction(async (tx) => {
    const scope = await scopeOfRules(tx, partnerId, items);
    const resolved = resolveRules(items, scope);
    let combos = 0;
    for (const rule of resolved) {
      if (rule.r.ruleType === 'COMBINATION') combos++;
      await storeRule(tx, partnerId, rule);
    }
    return { applied: items.length, combinations: combos };
  });
}

type Scope = Awaited<ReturnType<typeof scopeOfRules>>;
type ResolvedRule = ReturnType<typeof resolveRules>[number];

/** The events the rules name (a 404 for the first unknown), their shows, ticket options and price types. */
async function scopeOfRules(tx: Tx, partnerId: string, items: RuleItem[]) {
  const refs = [...new Set(items.map((r) => r.externalReferenceEventId))];
  const eventRows = await tx
    .select({ id: events.id, ref: events.externalReferenceId })
    .from(events)
    .where(and(eq(events.partnerId, partnerId), inArray(events.externalReferenceId, refs)));
  const eventByRef = new Map(eventRows.map((e) => [e.ref, e.id]));
  const missing = items.findIndex((r) => !eventByRef.has(r.externalReferenceEventId));
  if (missing >= 0) {
    throw new AppError('NOT_FOUND', 'Event not found', {
      details: [{ path: `[${missing}].externalReferenceEventId`, message: 'does not match an event', in: 'body' }],
    });
  }
  const showRows = await tx
    .select({ pk: shows.id, showId: shows.showId, eventId: shows.eventId })
    .from(shows)
    .where(inArray(shows.eventId, [...eventByRef.values()]));
  const showByKey = new Map(showRows.map((s) => [`${s.eventId}|${s.showId}`, s.pk]));
  const pks = showRows.map((s) => s.pk);
  const [options, types] = pks.length
    ? await Promise.all([
        tx
          .select({ showPk: ticketOptions.showPk, id: ticketOptions.ticketId, currency: ticketOptions.currency })
          .from(ticketOptions)
          .where(inArray(ticketOptions.showPk, pks)),
        tx
          .select({ showPk: priceTypes.showPk, id: priceTypes.priceTypeId })
          .from(priceTypes)
          .where(inArray(priceTypes.showPk, pks)),
      ])
    : [[], []];
  return {
    eventByRef,
    showByKey,
    optionCurrency: new Map(options.map((o) => [`${o.showPk}|${o.id}`, o.currency])),
    typeSet: new Set(types.map((t) => `${t.showPk}|${t.id}`)),
  };
}

/** Each rule with the ids it names resolved; every id that does not fit its event or show is refused at once. */
function resolveRules(items: RuleItem[], { eventByRef, showByKey, optionCurrency, typeSet }: Scope) {
  const problems: ErrorDetail[] = [];
  const resolved = items.map((r, i) => {
    const eventPk = eventByRef.get(r.externalReferenceEventId)!;
    const showPk = r.showId ? showByKey.get(`${eventPk}|${r.showId}`) : undefined;
    if (r.showId && !showPk)
      problems.push({ path: `[${i}].showId`, message: 'does not belong to the event', in: 'body' });
    if (showPk && r.ticketOptionId && !optionCurrency.has(`${showPk}|${r.ticketOptionId}`)) {
      problems.push({
        path: `[${i}].ticketOptionId`,
        message: "must equal a ticketId of the show's ticket options",
        in: 'body',
      });
    }
    if (showPk && r.priceTypeId && !typeSet.has(`${showPk}|${r.priceTypeId}`)) {
      problems.push({
        path: `[${i}].priceTypeId`,
        message: "must equal a priceTypeId of the show's price types",
        in: 'body',
      });
    }
    let priceMinor: number | null = null;
    const currency = showPk && r.ticketOptionId ? (optionCurrency.get(`${showPk}|${r.ticketOptionId}`) ?? '') : '';
    if (r.ruleType === 'COMBINATION' && r.price !== undefined && r.price !== null && currency) {
      const m = toMinorUnits(r.price, currency);
      if ('error' in m) problems.push({ path: `[${i}].price`, message: m.error, in: 'body' });
      else priceMinor = m.minor;
    }
    return { r, eventPk, showPk, currency, priceMinor };
  });
  if (problems.length) {
    throw new AppError('VALIDATION_FAILED', `Invalid request body: ${problems[0].path} ${problems[0].message}`, {
      details: problems,
    });
  }
  return resolved;
}

/** A combination's price, or a resale rule, replacing the one of the same scope and type. */
async function storeRule(tx: Tx, partnerId: string, { r, eventPk, showPk, currency, priceMinor }: ResolvedRule) {
  if (r.ruleType === 'COMBINATION') {
    await tx
      .insert(combinations)
      .values({
        id: newId('cmb'),
        partnerId,
        showPk: showPk!,
        ticketOptionId: r.ticketOptionId!,
        priceTypeId: r.priceTypeId!,
        currency,
        priceMinor,
        description: r.description ?? null,
      })
      .onConflictDoUpdate({
        target: [combinations.showPk, combinations.ticketOptionId, combinations.priceTypeId],
        set: { priceMinor, currency, description: r.description ?? null },
      });
    return;
  }
  const rules = resaleRuleBodies[r.ruleType as ResaleRuleType].parse(r.rules ?? {});
  await tx
    .insert(resaleRules)
    .values({
      id: newId('rul'),
      partnerId,
      eventPk,
      showId: r.showId ?? '',
      ticketOptionId: r.ticketOptionId ?? '',
      priceTypeId: r.priceTypeId ?? '',
      ruleType: r.ruleType,
      rules,
      description: r.description ?? null,
    })
    .onConflictDoUpdate({
      target: RULE_KEY,
      set: { rules, description: r.description ?? null, updatedAt: sql`now()` },
    });
}

export interface RuleScope {
  externalReferenceEventId: string;
  showId?: string;
  ticketOptionId?: string;
  priceTypeId?: string;
}

/** Rank of a rule's scope: the most specific rule of a type wins. */
function specificity(rule: { showId: string; ticketOptionId: string; priceTypeId: string }): number {
  if (rule.ticketOptionId && rule.priceTypeId) return 4;
  if (rule.ticketOptionId) return 3;
  if (rule.priceTypeId) return 2;
  if (rule.showId) return 1;
  return 0;
}

export type ResaleRuleRow = typeof resaleRules.$inferSelect;

/** A rule's key (its unique index): scope, type and source, one rule of each. */
export const RULE_KEY = [
  resaleRules.eventPk,
  resaleRules.showId,
  resaleRules.ticketOptionId,
  resaleRules.priceTypeId,
  resaleRules.ruleType,
  resaleRules.source,
];

/** Does rule `a` win over `b` of the same type: more specific scope, else staff's over the partner's. */
export function outranks(
  a: Pick<ResaleRuleRow, 'showId' | 'ticketOptionId' | 'priceTypeId' | 'source'>,
  b: Pick<ResaleRuleRow, 'showId' | 'ticketOptionId' | 'priceTypeId' | 'source'>,
): boolean {
  const diff = specificity(a) - specificity(b);
  return diff > 0 || (diff === 0 && a.source === 'STAFF' && b.source !== 'STAFF');
}
export type EffectiveResaleRules = Partial<Record<ResaleRuleType, Record<string, unknown>>>;

/**
 * Of an event's rule rows, the ones in force for a scope: one per type, the most specific. Pure, so a
 * caller evaluating many tickets reads the rules once (`resaleRulesOfEvents`) and picks per ticket.
 */
export function pickResaleRules(
  rows: readonly ResaleRuleRow[],
  scope: { eventPk: string; showId?: string; ticketOptionId?: string; priceTypeId?: string | null },
): EffectiveResaleRules {
  const best = new Map<string, ResaleRuleRow>();
  for (const row of rows) {
    if (row.eventPk !== scope.eventPk) continue;
    if (row.showId && row.showId !== scope.showId) continue;
    if (row.ticketOptionId && row.ticketOptionId !== scope.ticketOptionId) continue;
    if (row.priceTypeId && row.priceTypeId !== (scope.priceTypeId ?? '')) continue;
    // A rule naming an option or price type only applies within its show.
    if ((row.ticketOptionId || row.priceTypeId) && row.showId !== scope.showId) continue;
    const current = best.get(row.ruleType);
    if (!current || outranks(row, current)) best.set(row.ruleType, row);
  }
  return Object.fromEntries([...best].map(([type, row]) => [type, row.rules])) as EffectiveResaleRules;
}

/** Every resale rule of these events (their ids), in one query. */
export async function resaleRulesOfEvents(eventPks: string[], db: DbOrTx): Promise<ResaleRuleRow[]> {
  if (!eventPks.length) return [];
  return db
    .select()
    .from(resaleRules)
    .where(inArray(resaleRules.eventPk, [...new Set(eventPks)]));
}

/** The resale rules in force for a ticket's scope, one per type (the most specific), by type. */
export async function effectiveResaleRules(partnerId: string, scope: RuleScope, db: DbOrTx) {
  const [event] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.partnerId, partnerId), eq(events.externalReferenceId, scope.externalReferenceEventId)));
  if (!event) throw notFound('Event not found');
  const rows = await db
    .select()
    .from(resaleRules)
    .where(
      and(
        eq(resaleRules.eventPk, event.id),
        inArray(resaleRules.showId, ['', scope.showId ?? '']),
        inArray(resaleRules.ticketOptionId, ['', scope.ticketOptionId ?? '']),
        inArray(resaleRules.priceTypeId, ['', scope.priceTypeId ?? '']),
      ),
    );
  return pickResaleRules(rows, { ...scope, eventPk: event.id });
}

/** The declared ticketOption + priceType pair of a show, if any (combinations are never generated). */
async function findCombination(showPk: string, ticketOptionId: string, priceTypeId: string, db: DbOrTx) {
  const [row] = await db
    .select({ priceMinor: combinations.priceMinor })
    .from(combinations)
    .where(
      and(
        eq(combinations.showPk, showPk),
        eq(combinations.ticketOptionId, ticketOptionId),
        eq(combinations.priceTypeId, priceTypeId),
      ),
    );
  return row;
}

/**
 * Face value of a ticket in minor units: the combination's price when the pair is declared with a price
 * (Price Detail), else the ticket option's price (Standard). Null when neither has one.
 */
export async function faceValueMinor(
  showPk: string,
  ticketOptionId: string,
  priceTypeId: string | undefined,
  db: DbOrTx,
) {
  if (priceTypeId) {
    const combo = await findCombination(showPk, ticketOptionId, priceTypeId, db);
    if (combo?.priceMinor !== null && combo?.priceMinor !== undefined) return combo.priceMinor;
  }
  const [option] = await db
    .select({ priceMinor: ticketOptions.priceMinor })
    .from(ticketOptions)
    .where(and(eq(ticketOptions.showPk, showPk), eq(ticketOptions.ticketId, ticketOptionId)));
  return option?.priceMinor ?? null;
}

/** Whether a ticketOption + priceType pair was declared (combinations are never generated). */
export async function isDeclaredCombination(showPk: string, ticketOptionId: string, priceTypeId: string, db: DbOrTx) {
  return Boolean(await findCombination(showPk, ticketOptionId, priceTypeId, db));
}

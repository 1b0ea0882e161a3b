import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { protectionSettings } from '@/db/schema/protection';
import { notFound } from '@/server/lib/errors';
import { transaction, type Work } from '@/server/lib/transaction';
import { showDirectory } from '@/server/modules/catalog';
import { enqueueWebhook } from '@/server/modules/webhooks';
import { notifyProtectionTurnedOff } from './events';
import type { PartnerProtectionInput, ScopeProtectionInput } from './schemas';
import { DEFAULT_UNLOCK_HOURS } from './unlock';

type Row = typeof protectionSettings.$inferSelect;

/**
 * A partner's protection settings, read once (one small query: only the scopes staff changed have a row)
 * and resolved per show in memory, so a page of a thousand tickets costs one read.
 *
 * Decisions (docs/decisions.md, "Ticket protection"): protection is on unless staff switch it off for the event or
 * the show (the show's switch wins); resale needs it on, as in the reference product, because a seller who
 * can still show the QR could enter with a ticket they sold. Unlock: a staff override (show, else event)
 * wins, then the partner's `ticketDelivery`, then the partner's default hours (3 unless staff changed it).
 */
export class ProtectionSettings {
  private readonly byScope: Map<string, Row>;
  constructor(
    readonly partnerId: string,
    rows: Row[],
  ) {
    this.byScope = new Map(rows.map((r) => [r.scope, r]));
  }

  /** Protection is active for the show: the show's switch, else the event's, else on. */
  active(eventPk: string, showPk: string): boolean {
    return this.byScope.get(showPk)?.active ?? this.byScope.get(eventPk)?.active ?? true;
  }

  /** Staff's unlock override in hours before the show (the show's, else the event's), or null. */
  unlockOverride(eventPk: string, showPk: string): number | null {
    return this.byScope.get(showPk)?.unlockHours ?? this.byScope.get(eventPk)?.unlockHours ?? null;
  }

  /** The partner's default hours before the show (used when it sent no `ticketDelivery`). */
  get defaultUnlockHours(): number {
    return this.byScope.get(this.partnerId)?.unlockHours ?? DEFAULT_UNLOCK_HOURS;
  }

  /** The partner reissues a ticket after a resale or transfer (default: no, the code passes to the buyer). */
  get reissue(): boolean {
    return this.byScope.get(this.partnerId)?.reissue ?? false;
  }

  row(scope: string): Row | undefined {
    return this.byScope.get(scope);
  }
}

export async function protectionOf(partnerId: string, db: DbOrTx): Promise<ProtectionSettings> {
  const rows = await db.select().from(protectionSettings).where(eq(protectionSettings.partnerId, partnerId));
  return new ProtectionSettings(partnerId, rows);
}

/** The partner's protection defaults (staff, partner page). */
export async function partnerProtection(partnerId: string, db: DbOrTx) {
  const s = await protectionOf(partnerId, db);
  return { unlockHours: s.defaultUnlockHours, reissue: s.reissue };
}

export async function setPartnerProtection(input: PartnerProtectionInput, staffEmail: string, db: DbOrTx) {
  const values = {
    unlockHours: input.unlockHours,
    reissue: input.reissue,
    updatedBy: staffEmail,
    updatedAt: new Date(),
  };
  await db
    .insert(protectionSettings)
    .values({ scope: input.partnerId, partnerId: input.partnerId, ...values })
    .onConflictDoUpdate({ target: protectionSettings.scope, set: values });
  return partnerProtection(input.partnerId, db);
}

async function showsOfEvent(partnerId: string, eventPk: string, db: DbOrTx) {
  const d = showDirectory(db);
  return db
    .select({
      eventPk: d.eventPk,
      eventRef: d.eventRef,
      showPk: d.showPk,
      showId: d.showId,
      title: d.showTitle,
      startsAt: d.startsAt,
      status: d.showStatus,
    })
    .from(d)
    .where(and(eq(d.partnerId, partnerId), eq(d.eventPk, eventPk)))
    .orderBy(d.startsAt);
}

/** An event's protection as staff see it: its own switch and override, and each show's, with the result. */
export async function eventProtection(partnerId: string, eventPk: string, db: DbOrTx) {
  const [settings, shows] = await Promise.all([protectionOf(partnerId, db), showsOfEvent(partnerId, eventPk, db)]);
  if (!shows.length) throw notFound('Event not found');
  const ev = settings.row(eventPk);
  return {
    eventPk,
    event: { active: ev?.active ?? null, unlockHours: ev?.unlockHours ?? null },
    defaultUnlockHours: settings.defaultUnlockHours,
    shows: shows.map((s) => {
      const own = settings.row(s.showPk);
      return {
        showPk: s.showPk,
        showId: s.showId,
        title: s.title,
        startsAt: s.startsAt,
        status: s.status,
        active: own?.active ?? null,
        unlockHours: own?.unlockHours ?? null,
        effective: {
          active: settings.active(eventPk, s.showPk),
          unlockOverride: settings.unlockOverride(eventPk, s.showPk),
        },
      };
    }),
  };
}

/**
 * Staff switch protection (and the unlock override) of an event or one show. Every show whose protection
 * changes as a result gets one `ticketShield.updated` `{ status, eventId, showId }` (the partner's ids),
 * recorded in the same transaction as the change (the outbox): both commit or neither. Answers the
 * shows notified.
 */
export async function setScopeProtection(
  input: ScopeProtectionInput,
  staffEmail: string,
  within: Work | Db,
): Promise<{ notified: { eventId: string; showId: string; status: boolean }[] }> {
  return transaction(async (work) => {
    const { tx } = work;
    const shows = await showsOfEvent(input.partnerId, input.eventPk, tx);
    if (!shows.length) throw notFound('Event not found');
    if (input.showPk && !shows.some((s) => s.showPk === input.showPk)) throw notFound('Show not found');
    const scope = input.showPk ?? input.eventPk;
    // Serialises concurrent switches of one partner, so "before" and "after" are each one state.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`protection:${input.partnerId}`}))`);
    const before = await protectionOf(input.partnerId, tx);
    const values = {
      active: input.active,
      unlockHours: input.unlockHours,
      updatedBy: staffEmail,
      updatedAt: new Date(),
    };
    if (input.active === null && input.unlockHours === null) {
      await tx.delete(protectionSettings).where(eq(protectionSettings.scope, scope));
    } else {
      await tx
        .insert(protectionSettings)
        .values({
          scope,
          partnerId: input.partnerId,
          eventPk: input.eventPk,
          showPk: input.showPk ?? null,
          ...values,
        })
        .onConflictDoUpdate({ target: protectionSettings.scope, set: values });
    }
    const after = await protectionOf(input.partnerId, tx);
    const notified: { eventId: string; showId: string; status: boolean }[] = [];
    const turnedOff: string[] = [];
    for (const s of shows) {
      const status = after.active(s.eventPk, s.showPk);
      if (status === before.active(s.eventPk, s.showPk)) continue;
      await enqueueWebhook(work, input.partnerId, {
        family: 'ticketShield',
        action: 'ticketShield.updated',
        data: { status, eventId: s.eventRef, showId: s.showId },
      });
      notified.push({ eventId: s.eventRef, showId: s.showId, status });
      if (!status) turnedOff.push(s.showPk);
    }
    if (turnedOff.length) await notifyProtectionTurnedOff(work, turnedOff);
    return { notified };
  }, within);
}

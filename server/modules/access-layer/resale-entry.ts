import type { Db } from '@/db';
import { notFound } from '@/server/lib/errors';
import { defaultLocale, supportedLocale, translator } from '@/server/lib/i18n';
import { fanOfOneTimeToken } from '@/server/modules/fans';
import { resaleEntryPage, type SellReason, type TicketSellStatus } from '@/server/modules/marketplace';
import type { CallToAction, ResaleEntry } from './schemas';
import { CtaBuilder } from './sell';

/*
 * GET /v1/wrapper/accesslayer/resale-entry, what `<encore-sell>` draws on a partner's page: the
 * fan's resale entry (the static resale entry page's tickets, statuses and reasons) for the fan a one-time
 * token names. The token is read, never spent: the widget may read it again, and the fan's links carry
 * tokens of their own (`autologin=true`). One answer for a token Encore does not know, one spent or
 * expired, and another partner's: a 404 that says nothing of which.
 */

const TOKEN_REFUSED = 'The one-time token is unknown, used or expired: mint a fresh one (GET /v1/auth/oneTimeToken)';

type Status = ResaleEntry['shows'][number]['tickets'][number]['status'];

function reasonText(t: ReturnType<typeof translator<'sell'>>, r: SellReason, partner: string): string {
  switch (r.code) {
    case 'WINDOW_NOT_OPEN':
    case 'WINDOW_CLOSED':
      return t(`reason.${r.code}`, { hours: r.hours ?? 0 });
    case 'TOO_MANY':
      return t('reason.TOO_MANY', { max: r.max ?? 0 });
    case 'RULES_FORBID':
    case 'CODE_REVEALED':
    case 'NOT_OWNED':
    case 'UNVERIFIED':
      return t(`reason.${r.code}`, { partner });
    case 'LISTED':
      return r.status === 'RESERVED' ? t('reason.RESERVED') : t('reason.LISTED');
    default:
      return t(`reason.${r.code}`);
  }
}

/** A ticket's status and actions as the sell access layer names them; the page's reasons in the fan's words. */
function ticketOf(partnerName: string, s: TicketSellStatus, b: CtaBuilder, t: ReturnType<typeof translator<'sell'>>) {
  const sold = s.reasons.find((r) => r.code === 'SOLD');
  const listed = s.reasons.find((r) => r.code === 'LISTED');
  let status: Status = 'NOT_SELLABLE';
  const callToActions: CallToAction[] = [];
  if (sold) {
    status = 'SOLD';
    callToActions.push(b.make({ key: 'DETAILS', path: `/listing/${sold.listingId}` }));
  } else if (listed) {
    status = 'FOR_SALE';
    callToActions.push(b.make({ key: 'EDIT', path: `/listing/${listed.listingId}` }));
  } else if (s.sellable) {
    status = 'SELLABLE';
    callToActions.push(b.make({ key: 'SELL', path: `/sell/${s.ticket.pk}` }));
  }
  const seating = s.ticket.seating ?? {};
  const seat: { section?: string; row?: string; seat?: string } = {};
  for (const key of ['section', 'row', 'seat'] as const) {
    const v = seating[key];
    if (typeof v === 'string' || typeof v === 'number') seat[key] = String(v);
  }
  return {
    ticketId: s.ticket.ticketId,
    ticketOptionId: s.ticket.ticketOptionId,
    option: s.label?.optionTitles[s.ticket.ticketOptionId] ?? s.ticket.ticketOptionId,
    seat: Object.keys(seat).length ? seat : null,
    status,
    callToActions,
    reasons: (sold ? [sold] : s.reasons).map((r) => ({ code: r.code, text: reasonText(t, r, partnerName) })),
  };
}

export async function resaleEntry(
  partner: { partnerId: string; partnerName: string },
  query: { token: string; autologin?: 'true' | 'false'; lang?: string },
  db: Db,
): Promise<ResaleEntry> {
  const fan = await fanOfOneTimeToken(query.token, db);
  // Another partner's token answers as an unknown one: nothing about it, or its fan, leaves Encore.
  if (!fan || fan.partnerId !== partner.partnerId) throw notFound(TOKEN_REFUSED);
  const t = translator(supportedLocale(query.lang) ?? defaultLocale(), 'sell');
  const b = new CtaBuilder(query.lang);
  const page = b.make({ key: 'MANAGE', path: `/resale/${encodeURIComponent(partner.partnerId)}` });
  const entry = await resaleEntryPage(partner.partnerId, fan.email, {}, db);
  const shows = entry.groups.map((g) => {
    const first = g.tickets[0].ticket;
    return {
      eventId: first.eventRef,
      showId: first.showId,
      eventTitle: g.label?.eventTitle ?? '',
      showTitle: g.label?.showTitle ?? '',
      startsAt: (g.label?.startsAt ?? first.startsAt).toISOString(),
      timeZone: g.label?.timeZone ?? null,
      tickets: g.tickets.map((s) => ticketOf(partner.partnerName, s, b, t)),
    };
  });
  await b.finish(partner.partnerId, fan.email, query.autologin === 'true', db);
  return { unavailable: entry.unavailable, url: page.url, shows };
}

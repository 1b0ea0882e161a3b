import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { HourglassIcon, LockIcon } from '@/components/market/icons';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import { eventPageInfo } from '@/server/modules/catalog';
import { type SecureViewState, secureView } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { seatText } from '../../market/buy-format';
import '../../market/buy.css';
import { ReissueWatch, UnlockCountdown } from './protection';
import { TicketActions, TicketCode } from './ticket-parts';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('checkout');
  return { title: t('ticketTitle'), robots: { index: false } };
}

/**
 * The secure ticket view (its link is the ticket): event, date at the venue, seat, holder, state and
 * actions. Protection: the access code stays off the page (HTML and every payload) until it unlocks
 * (staff's override, else the show's `ticketDelivery`, else hours before the show) and while the ticket is
 * listed, awaits its reissue or changed hands; then the QR (the partner's image, or one drawn from the
 * code) and a moving code that a screenshot cannot copy. A previous holder's link says sold/transferred.
 */
export default async function SecureTicketPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const token = (await params).token;
  const view = await secureView(token, undefined, getDb());
  if (!view) notFound();
  const { ticket, state } = view;
  const [partner, event, t, tb, locale] = await Promise.all([
    getPartner(ticket.partnerId, getDb()),
    eventPageInfo(ticket.eventPk, getDb()),
    getTranslations('checkout'),
    getTranslations('buy'),
    getLocale() as Promise<Locale>,
  ]);
  const show = event?.shows.find((s) => s.showPk === ticket.showPk);
  const tz = show?.venue.timeZone;
  const option = show?.ticketOptions.find((o) => o.id === ticket.ticketOptionId)?.title ?? ticket.ticketOptionId;
  const access = view.ticketAccess;
  const priceType = ticket.priceTypeId
    ? (show?.priceTypes?.find((p) => p.id === ticket.priceTypeId)?.title ?? ticket.priceTypeId)
    : null;
  const s = ticket.seating ?? {};
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const seat = seatText([{ section: str(s.section), row: str(s.row), seat: str(s.seat) }], tb);
  const venue = show ? [show.venue.name, show.venue.address].filter(Boolean).join(' · ') : '';
  const label: Record<SecureViewState, string> = {
    valid: t('ticketValid'),
    listed: t('stateListed'),
    reissuing: t('stateReissuing'),
    used: t('statusUsed'),
    sold: t('stateSold'),
    transferred: t('stateTransferred'),
    cancelled: t('stateCancelled'),
    deleted: t('stateDeleted', { partner: partner.name }),
  };
  // A sale is good news for the seller reading their old link: not styled as a failure.
  const good = state === 'valid' || state === 'listed' || state === 'reissuing' || state === 'sold';
  const badge = good ? 'mk-badge mk-badge-ok' : state === 'transferred' ? 'mk-badge' : 'mk-badge mk-badge-bad';
  const ended = view.endedAt ? formatShowDate(view.endedAt, locale, tz) : '';
  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} narrow>
      <section className="mk-card buy-ticket" aria-labelledby="ticket-heading" data-testid="secure-ticket">
        <p className="mk-muted">{t('ticketTitle')}</p>
        <h1 id="ticket-heading" className="buy-h2">
          {ticket.event}
        </h1>
        <p data-testid="ticket-date">{formatShowDate(ticket.startsAt, locale, tz)}</p>
        {venue ? <p className="mk-muted">{venue}</p> : null}
        <dl className="mk-breakdown">
          <dt>{tb('option')}</dt>
          <dd>{option}</dd>
          {priceType ? (
            <>
              <dt>{t('priceType')}</dt>
              <dd>{priceType}</dd>
            </>
          ) : null}
          <dt>{t('seatLabel')}</dt>
          <dd data-testid="ticket-seat">{seat}</dd>
          {ticket.holder ? (
            <>
              <dt>{t('holder')}</dt>
              <dd data-testid="ticket-holder">{ticket.holder}</dd>
            </>
          ) : null}
          <dt>{t('ticketStatus')}</dt>
          <dd>
            <span className={badge} data-testid="ticket-status" data-state={state}>
              {label[state]}
            </span>
          </dd>
        </dl>
        {state === 'used' ? (
          <p className="mk-notice" data-testid="ticket-used">
            {t('ticketUsed')}
          </p>
        ) : state === 'cancelled' || state === 'deleted' ? (
          <p className="mk-alert" role="alert" data-testid="ticket-ended">
            {state === 'cancelled' ? t('ticketCancelled') : t('deletedBody', { partner: partner.name })}
          </p>
        ) : state === 'sold' ? (
          <p className="mk-success" role="status" data-testid="ticket-ended">
            {t('soldBody', { date: ended })}
          </p>
        ) : state === 'transferred' ? (
          <p className="mk-notice" role="status" data-testid="ticket-ended">
            {t('transferredBody', { date: ended })}
          </p>
        ) : state === 'listed' ? (
          <div className="mk-notice" data-testid="ticket-listed">
            <p>{t('listedBody')}</p>
            {view.listingId ? (
              <p>
                <a href={`/listing/${view.listingId}`}>{t('manageListing')}</a>
              </p>
            ) : null}
          </div>
        ) : state === 'reissuing' ? (
          <div className="ticket-locked" data-testid="ticket-reissuing">
            <span className="ticket-locked-icon" aria-hidden="true">
              <HourglassIcon />
            </span>
            <p>{t('reissuingBody', { partner: partner.name })}</p>
            <ReissueWatch />
          </div>
        ) : !access ? (
          <div className="ticket-locked" data-testid="ticket-locked">
            <span className="ticket-locked-icon" aria-hidden="true">
              <LockIcon />
            </span>
            <p>
              <strong>{t('lockedTitle')}</strong>
            </p>
            <p className="mk-muted">{t('lockedBody', { date: formatShowDate(view.unlocksAt, locale, tz) })}</p>
            <UnlockCountdown at={view.unlocksAt.toISOString()} label={t('countdown')} />
          </div>
        ) : (
          <TicketCode access={access} protectionActive={view.protectionActive} token={token} t={t} />
        )}
        <TicketActions actions={view.actions} ticketPk={ticket.pk} token={token} t={t} />
        <p className="mk-muted">{t('ticketId', { id: ticket.ticketId })}</p>
      </section>
    </MarketShell>
  );
}

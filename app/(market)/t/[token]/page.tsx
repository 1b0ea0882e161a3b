import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import QRCode from 'qrcode';
import { eventPageInfo } from '@/server/modules/catalog';
import { type SecureViewState, secureView } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { MOVING_CODE_SECONDS, movingCodeKey } from '@/server/modules/protection';
import { seatText } from '../../market/buy-format';
import '../../market/buy.css';
import { MovingCode, ReissueWatch, UnlockCountdown } from './protection';

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
  const qrSvg =
    access?.locator && access.type !== 'URL'
      ? await QRCode.toString(access.locator, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })
      : null;
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
    deleted: t('stateDeleted'),
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
            {state === 'cancelled' ? t('ticketCancelled') : t('deletedBody')}
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
              ⏳
            </span>
            <p>{t('reissuingBody')}</p>
            <ReissueWatch />
          </div>
        ) : !access ? (
          <div className="ticket-locked" data-testid="ticket-locked">
            <span className="ticket-locked-icon" aria-hidden="true">
              🔒
            </span>
            <p>
              <strong>{t('lockedTitle')}</strong>
            </p>
            <p className="mk-muted">{t('lockedBody', { date: formatShowDate(view.unlocksAt, locale, tz) })}</p>
            <UnlockCountdown at={view.unlocksAt.toISOString()} label={t('countdown')} />
          </div>
        ) : (
          <div className="ticket-code" data-testid="ticket-code">
            {!view.protectionActive ? <p className="mk-muted">{t('unprotected')}</p> : null}
            {access.type === 'URL' && access.locator ? (
              // eslint-disable-next-line @next/next/no-img-element -- the partner's own QR image
              <img className="ticket-qr" src={access.locator} alt={t('qrAlt')} data-testid="ticket-qr" />
            ) : qrSvg ? (
              <div
                className="ticket-qr"
                role="img"
                aria-label={t('qrAlt')}
                data-testid="ticket-qr"
                dangerouslySetInnerHTML={{ __html: qrSvg }}
              />
            ) : null}
            <MovingCode
              keyHex={movingCodeKey(token).toString('hex')}
              step={MOVING_CODE_SECONDS}
              label={t('liveCode')}
              hint={t('liveHint')}
            />
          </div>
        )}
        {view.actions.sell || view.actions.transfer || view.actions.calendar ? (
          <nav aria-label={t('actionsTitle')} className="ticket-actions" data-testid="ticket-actions">
            {view.actions.sell ? (
              <a className="mk-btn mk-btn-secondary" href={`/sell/${ticket.pk}`}>
                {t('actionSell')}
              </a>
            ) : null}
            {view.actions.transfer ? (
              <a className="mk-btn mk-btn-secondary" href={`/t/${token}/transfer`}>
                {t('actionTransfer')}
              </a>
            ) : null}
            {view.actions.calendar ? (
              <a className="mk-btn mk-btn-secondary" href={`/t/${token}/calendar.ics`} download>
                {t('actionCalendar')}
              </a>
            ) : null}
          </nav>
        ) : null}
        <p className="mk-muted">{t('ticketId', { id: ticket.ticketId })}</p>
      </section>
    </MarketShell>
  );
}

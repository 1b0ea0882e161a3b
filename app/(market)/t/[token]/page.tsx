import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { MarketShell } from '@/components/market/shell';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import QRCode from 'qrcode';
import { eventPageInfo, showConfigurations } from '@/server/modules/catalog';
import { MOVING_CODE_SECONDS, movingCodeKey, unlockState } from '@/server/modules/protection';
import { getPartner } from '@/server/modules/partners';
import { secureTicketPage } from '@/server/modules/tickets';
import { seatText } from '../../market/buy-format';
import '../../market/buy.css';
import { MovingCode, UnlockCountdown } from './protection';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('checkout');
  return { title: t('ticketTitle'), robots: { index: false } };
}

/**
 * The secure ticket view (its link is the ticket): event, date at the venue, seat, holder and status.
 * Protection: the access code stays off the page (HTML and every payload) until it unlocks — the
 * show's `ticketDelivery`, else 3 hours before the show; then the QR (the partner's image, or one drawn
 * from the code) and a moving code that a screenshot cannot copy.
 */
export default async function SecureTicketPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const token = (await params).token;
  const ticket = await secureTicketPage(token);
  if (!ticket) notFound();
  const [partner, event, t, tb, locale, configurations] = await Promise.all([
    getPartner(ticket.partnerId),
    eventPageInfo(ticket.eventPk),
    getTranslations('checkout'),
    getTranslations('buy'),
    getLocale() as Promise<Locale>,
    showConfigurations(ticket.showPk),
  ]);
  const { unlocksAt, unlocked: timeUp } = unlockState(ticket.startsAt, configurations?.show, configurations?.event);
  const used = ticket.admittedAt !== null;
  const show = event?.shows.find((s) => s.showPk === ticket.showPk);
  const option = show?.ticketOptions.find((o) => o.id === ticket.ticketOptionId)?.title ?? ticket.ticketOptionId;
  const valid = ticket.status === 'VALID' && ticket.showStatus === 'LIVE' && !used;
  const unlocked = valid && timeUp;
  const access = unlocked ? ticket.ticketAccess : null;
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
  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} narrow>
      <section className="mk-card buy-ticket" aria-labelledby="ticket-heading" data-testid="secure-ticket">
        <p className="mk-muted">{t('ticketTitle')}</p>
        <h1 id="ticket-heading" className="buy-h2">
          {ticket.event}
        </h1>
        <p data-testid="ticket-date">{formatShowDate(ticket.startsAt, locale, show?.venue.timeZone)}</p>
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
            <span className={valid ? 'mk-badge mk-badge-ok' : 'mk-badge mk-badge-bad'} data-testid="ticket-status">
              {used ? t('statusUsed') : valid ? t('ticketValid') : t('ticketInvalid')}
            </span>
          </dd>
        </dl>
        {used ? (
          <p className="mk-notice" data-testid="ticket-used">
            {t('ticketUsed')}
          </p>
        ) : !valid ? (
          <p className="mk-alert" role="alert">
            {ticket.showStatus === 'CANCELLED' ? t('ticketCancelled') : t('ticketGone')}
          </p>
        ) : !unlocked ? (
          <div className="ticket-locked" data-testid="ticket-locked">
            <span className="ticket-locked-icon" aria-hidden="true">
              🔒
            </span>
            <p>
              <strong>{t('lockedTitle')}</strong>
            </p>
            <p className="mk-muted">
              {t('lockedBody', { date: formatShowDate(unlocksAt, locale, show?.venue.timeZone) })}
            </p>
            <UnlockCountdown at={unlocksAt.toISOString()} label={t('countdown')} />
          </div>
        ) : (
          <div className="ticket-code" data-testid="ticket-code">
            {access?.type === 'URL' && access.locator ? (
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
        <p className="mk-muted">{t('ticketId', { id: ticket.ticketId })}</p>
      </section>
    </MarketShell>
  );
}

import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import { MarketShell } from '@/components/market/shell';
import { formatShowDate, type Locale } from '@/server/lib/i18n';
import { eventPageInfo } from '@/server/modules/catalog';
import { getPartner } from '@/server/modules/partners';
import { secureTicketPage } from '@/server/modules/tickets';
import { seatText } from '../../market/buy-format';
import '../../market/buy.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('checkout');
  return { title: t('ticketTitle'), robots: { index: false } };
}

/** The secure ticket view (its link is the ticket): event, date at the venue, seat and status; the QR comes later. */
export default async function SecureTicketPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const ticket = await secureTicketPage((await params).token);
  if (!ticket) notFound();
  const [partner, event, t, tb, locale] = await Promise.all([
    getPartner(ticket.partnerId),
    eventPageInfo(ticket.eventPk),
    getTranslations('checkout'),
    getTranslations('buy'),
    getLocale() as Promise<Locale>,
  ]);
  const show = event?.shows.find((s) => s.showPk === ticket.showPk);
  const option = show?.ticketOptions.find((o) => o.id === ticket.ticketOptionId)?.title ?? ticket.ticketOptionId;
  const valid = ticket.status === 'VALID' && ticket.showStatus === 'LIVE';
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
          <dt>{t('seatLabel')}</dt>
          <dd data-testid="ticket-seat">{seat}</dd>
          <dt>{t('ticketStatus')}</dt>
          <dd>
            <span className={valid ? 'mk-badge mk-badge-ok' : 'mk-badge mk-badge-bad'} data-testid="ticket-status">
              {valid ? t('ticketValid') : t('ticketInvalid')}
            </span>
          </dd>
        </dl>
        {valid ? (
          <div className="buy-ticket-qr">{t('qrLater')}</div>
        ) : (
          <p className="mk-alert" role="alert">
            {ticket.showStatus === 'CANCELLED' ? t('ticketCancelled') : t('ticketGone')}
          </p>
        )}
        <p className="mk-muted">{t('ticketId', { id: ticket.ticketId })}</p>
      </section>
    </MarketShell>
  );
}

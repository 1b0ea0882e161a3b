import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { sellFlow, sellPage } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { listTicketsAction } from '../../_sell/actions';
import { SellForm } from '../../_sell/forms';
import { PayoutDate, PayoutSetup, ShowHeading, SignInPrompt, TicketLine, ticketName } from '../../_sell/parts';
import { rangeText } from '../../_sell/reasons';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('sell');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Props = { params: Promise<{ ticketId: string }>; searchParams: Promise<Record<string, string | undefined>> };

/**
 * The selling flow (one ticket, or with `?order=1` the tickets of its order): the signed-in fan of the
 * ticket's partner sees each ticket with whether it can be sold and why not (ownership asked live), the
 * price field with the allowed range and the payout after fees, payout set-up, and confirms.
 */
export default async function SellPage({ params, searchParams }: Props) {
  await connection();
  const [{ ticketId }, query] = await Promise.all([params, searchParams]);
  const ticket = await sellPage(ticketId, getDb());
  if (!ticket) notFound();
  const partner = await getPartner(ticket.partnerId, getDb());
  const shell = { id: partner.id, name: partner.name, logoUrl: partner.logoUrl };
  const order = query.order === '1';
  const returnTo = safeReturnTo(query.returnTo ?? query.returnURL, partner);
  const path = withReturnTo(`/sell/${ticket.pk}${order ? '?order=1' : ''}`, returnTo);
  const t = await getTranslations('sell');
  const fan = await fanOf(partner.id);
  if (!fan) {
    return (
      <MarketShell partner={shell} returnTo={returnTo} narrow>
        <h1>{order ? t('titleOrder') : t('title')}</h1>
        <SignInPrompt partnerId={partner.id} partnerName={partner.name} next={path} />
      </MarketShell>
    );
  }
  const flow = await sellFlow(ticket, fan.email, order, getDb());
  const sellable = flow.tickets.filter((s) => s.sellable);
  const first = flow.tickets[0];
  const choices = await Promise.all(
    sellable.map(async (s) => ({ pk: s.ticket.pk, label: await ticketName(s.ticket, s.label) })),
  );
  return (
    <MarketShell partner={shell} returnTo={returnTo}>
      <h1>{flow.order ? t('titleOrder') : t('title')}</h1>
      <p className="mk-lead">{t('lead', { partner: partner.name })}</p>
      <div className="sl-layout">
        <section className="mk-card" aria-labelledby="tickets-title" data-testid="sell-tickets">
          <h2 id="tickets-title" className="sl-small mk-muted">
            {t('yourTickets', { count: flow.tickets.length })}
          </h2>
          <ShowHeading label={first.label} startsAt={first.ticket.startsAt} level={3} />
          <ul className="sl-tickets">
            {flow.tickets.map((s) => (
              <TicketLine key={s.ticket.pk} status={s} partnerName={partner.name} />
            ))}
          </ul>
        </section>
        <div className="sl-actions">
          <section className="mk-card" aria-labelledby="price-title">
            <h2 id="price-title">{t('priceTitle')}</h2>
            {sellable.length ? (
              <SellForm
                action={listTicketsAction}
                ticketPk={ticket.pk}
                partnerName={partner.name}
                tickets={choices}
                order={flow.order}
                currency={flow.range.currency}
                faceMinor={flow.range.faceMinor}
                range={await rangeText(flow.range)}
                model={flow.payoutModel}
                returnTo={returnTo}
              />
            ) : (
              <p className="mk-notice" data-testid="nothing-to-sell">
                {t('nothingToSell')}
              </p>
            )}
            {sellable.length ? <PayoutDate partnerId={partner.id} showPk={first.ticket.showPk} /> : null}
          </section>
          <PayoutSetup partnerId={partner.id} status={flow.payoutStatus} returnPath={path} />
        </div>
      </div>
    </MarketShell>
  );
}

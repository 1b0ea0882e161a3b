import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { safeReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { AppError } from '@/server/lib/errors';
import { resaleEntryPage } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { ShowHeading, SignInPrompt, TicketLine } from '../../_sell/parts';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('entry');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Props = { params: Promise<{ partnerId: string }>; searchParams: Promise<Record<string, string | undefined>> };

async function partnerOrNull(id: string) {
  try {
    return await getPartner(id, getDb());
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}

/**
 * The partner's static resale entry page (one URL per partner): the signed-in fan's tickets of this
 * partner, asked of the partner now, grouped by show, each with its sell status and the way to sell it.
 */
export default async function ResaleEntryPage({ params, searchParams }: Props) {
  await connection();
  const [{ partnerId }, query] = await Promise.all([params, searchParams]);
  const partner = await partnerOrNull(partnerId);
  if (!partner || partner.disabledAt) notFound();
  const shell = { id: partner.id, name: partner.name, logoUrl: partner.logoUrl };
  const returnTo = safeReturnTo(query.returnTo, partner.returnOrigins);
  const t = await getTranslations('entry');
  const fan = await fanOf(partner.id);
  if (!fan) {
    return (
      <MarketShell partner={shell} returnTo={returnTo} narrow>
        <h1>{t('title', { partner: partner.name })}</h1>
        <p className="mk-lead">{t('lead')}</p>
        <SignInPrompt
          partnerId={partner.id}
          partnerName={partner.name}
          next={`/resale/${partner.id}${query.sync === '1' ? '?sync=1' : ''}`}
        />
      </MarketShell>
    );
  }
  // `sync=1` (the access layer's URL for a ticket Encore was never sent): store the partner's tickets first.
  const page = await resaleEntryPage(partner.id, fan.email, { sync: query.sync === '1' }, getDb());
  return (
    <MarketShell partner={shell} returnTo={returnTo}>
      <h1>{t('title', { partner: partner.name })}</h1>
      <p className="mk-lead">{t('leadSignedIn', { partner: partner.name })}</p>
      {page.unavailable ? (
        <p className="mk-alert" role="alert" data-testid="entry-unavailable">
          {t('unavailable', { partner: partner.name })}
        </p>
      ) : page.groups.length === 0 ? (
        <section className="mk-card mk-empty" data-testid="entry-empty">
          <h2>{t('emptyTitle')}</h2>
          <p>{t('emptyBody', { partner: partner.name })}</p>
        </section>
      ) : (
        <div data-testid="entry-tickets">
          {page.groups.map((g) => (
            <section key={g.showPk} className="mk-card sl-group" aria-label={g.label?.eventTitle ?? g.showPk}>
              <ShowHeading label={g.label} startsAt={g.tickets[0].ticket.startsAt} />
              <ul className="sl-tickets">
                {g.tickets.map((s) => (
                  <TicketLine
                    key={s.ticket.pk}
                    status={s}
                    partnerName={partner.name}
                    sellHref={`/sell/${s.ticket.pk}`}
                  />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </MarketShell>
  );
}

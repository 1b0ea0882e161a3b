import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { safeReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { AppError } from '@/server/lib/errors';
import { resaleEntryPage, syncForSale, type SyncTarget } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { ShowHeading, SignInPrompt, TicketLine } from '../../_sell/parts';
import { SyncRefusal } from './sync-refusal';

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

/** The ticket or order a selling entrypoint's `sync=1` URL names (sync on demand), else null. */
function syncTargetOf(query: Record<string, string | undefined>): SyncTarget | null {
  if (query.sync !== '1') return null;
  if (query.ticketId) return { ticketId: query.ticketId };
  if (query.orderId) return { orderId: query.orderId };
  return null;
}

/** This page's own path with its sync query (where sign-in and "try again" come back to). */
function selfPath(partnerId: string, query: Record<string, string | undefined>): string {
  const keep = new URLSearchParams();
  for (const k of ['sync', 'ticketId', 'orderId', 'returnTo'] as const) if (query[k]) keep.set(k, query[k]);
  const q = keep.toString();
  return `/resale/${partnerId}${q ? `?${q}` : ''}`;
}

/** Where a synced ticket is sold: its sell form (the order's, for an order), keeping the way back. */
function sellPath(pk: string, order: boolean, returnTo: string | null): string {
  const q = new URLSearchParams();
  if (order) q.set('order', '1');
  if (returnTo) q.set('returnTo', returnTo);
  const s = q.toString();
  return `/sell/${pk}${s ? `?${s}` : ''}`;
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
  const returnTo = safeReturnTo(query.returnTo, partner);
  const t = await getTranslations('entry');
  const fan = await fanOf(partner.id);
  if (!fan) {
    return (
      <MarketShell partner={shell} returnTo={returnTo} narrow>
        <h1>{t('title', { partner: partner.name })}</h1>
        <p className="mk-lead">{t('lead')}</p>
        <SignInPrompt partnerId={partner.id} partnerName={partner.name} next={selfPath(partner.id, query)} />
      </MarketShell>
    );
  }
  const target = syncTargetOf(query);
  if (target) {
    // Sync on demand: the partner vouches for this fan's ticket (stored now) → its sell form; else why not.
    const outcome = await syncForSale(partner.id, fan.email, target, getDb());
    if (outcome.kind === 'SELL') redirect(sellPath(outcome.ticketPk, outcome.order, returnTo));
    if (outcome.kind !== 'NO_ENDPOINT')
      return (
        <MarketShell partner={shell} returnTo={returnTo} narrow>
          <h1>{t('title', { partner: partner.name })}</h1>
          <SyncRefusal
            outcome={outcome}
            target={target}
            partner={partner}
            fanEmail={fan.email}
            retryPath={selfPath(partner.id, query)}
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

import type { Metadata } from 'next';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { getEventTitle } from '@/server/modules/catalog';
import { notificationLead } from '@/server/modules/market-data';
import { getPartner } from '@/server/modules/partners';
import { unsubscribeAction } from './actions';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('unsubscribe');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | undefined>> };

/**
 * A wishlist mail's unsubscribe link. Opening it changes nothing (mail scanners open links); the fan
 * confirms with the button, a form post.
 */
export default async function UnsubscribePage({ params, searchParams }: Props) {
  await connection();
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const t = await getTranslations('unsubscribe');
  const lead = await notificationLead(id, getDb());
  if (!lead) {
    return (
      <MarketShell partner={null} narrow>
        <h1>{t('gone')}</h1>
      </MarketShell>
    );
  }
  const [partner, event] = await Promise.all([
    getPartner(lead.partnerId, getDb()),
    getEventTitle(lead.partnerId, lead.eventRef, getDb()),
  ]);
  const names = { partner: partner.name, event: event ?? lead.eventRef };
  const done = query.done === '1' || lead.unsubscribedAt !== null;
  return (
    <MarketShell partner={{ id: partner.id, name: partner.name, logoUrl: partner.logoUrl }} narrow>
      <section className="mk-card" aria-labelledby="unsubscribe-heading">
        <h1 id="unsubscribe-heading">{done ? t('done', names) : t('title')}</h1>
        {done ? null : (
          <>
            <p>{t('body', names)}</p>
            <form action={unsubscribeAction}>
              <input type="hidden" name="id" value={id} />
              <button type="submit" className="mk-btn" data-testid="unsubscribe">
                {t('confirm')}
              </button>
            </form>
          </>
        )}
      </section>
    </MarketShell>
  );
}

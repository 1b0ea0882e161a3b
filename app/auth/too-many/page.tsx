import type { Metadata } from 'next';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { brandOfPath } from '@/components/market/brand';
import { FanLinkCard } from '@/components/auth/fan-link-card';
import { REDEEM_FAILURES_PER_CLIENT, safeNextPath } from '@/server/modules/fans';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('tooManyLinks');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Search = Promise<{ minutes?: string | string[]; next?: string | string[] }>;

/** The wait the redeem route stated, within what the limit can ask (its window); the longest when absent. */
function waitMinutes(raw: string | string[] | undefined): number {
  const longest = Math.ceil(REDEEM_FAILURES_PER_CLIENT.windowSeconds / 60);
  const minutes = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : longest;
  return Math.min(Math.max(minutes, 1), longest);
}

/**
 * Where a client that opened too many bad one-time links lately lands (the redeem route sends it here,
 * its link unspent): how long to wait, and that a valid link still works meanwhile, in the fan's language
 * (the proxy picks it, as for the expired-link page) and in the brand of the page the link was going to,
 * else of the partner the fan last signed in with.
 */
export default async function TooManyLinksPage({ searchParams }: { searchParams: Search }) {
  await connection();
  const query = await searchParams;
  const next = safeNextPath(typeof query.next === 'string' ? query.next : null);
  const [known, t] = await Promise.all([brandOfPath(next), getTranslations('tooManyLinks')]);
  return (
    <FanLinkCard messages="tooManyLinks" known={known} next={next}>
      <p role="alert" data-testid="too-many-wait">
        {t('wait', { minutes: waitMinutes(query.minutes) })}
      </p>
      <p>{known ? t('own', { partner: known.name }) : t('ownUnknown')}</p>
    </FanLinkCard>
  );
}

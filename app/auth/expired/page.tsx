import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { brandOfRequest } from '@/components/market/brand';
import { FanLinkCard } from '@/components/auth/fan-link-card';
import { safeNextPath } from '@/server/modules/fans';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('expired');
  return { title: t('metaTitle'), robots: { index: false } };
}

type Search = Promise<{ next?: string | string[] }>;

/**
 * Where a used, expired or unknown one-time link lands: what happened and how to get a fresh one, in
 * the fan's language (the proxy picks it for this page too, though it sits outside the fan pages), in the
 * brand of the link's partner (`?partner=`), else of the partner the fan last signed in with.
 */
export default async function LinkExpiredPage({ searchParams }: { searchParams: Search }) {
  await connection();
  const query = await searchParams;
  const next = safeNextPath(typeof query.next === 'string' ? query.next : null);
  const [known, t] = await Promise.all([brandOfRequest(), getTranslations('expired')]);
  const login = known ? `/login?${new URLSearchParams({ partner: known.id, next })}` : null;
  return (
    <FanLinkCard messages="expired" known={known} next={next}>
      <p>{known ? t('againPartner', { partner: known.name }) : t('againUnknown')}</p>
      {login ? (
        <p>
          {t('byEmail')}{' '}
          <Link href={login} className="btn btn-primary" data-testid="expired-login">
            {t('sendLink')}
          </Link>
        </p>
      ) : null}
    </FanLinkCard>
  );
}

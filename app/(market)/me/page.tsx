import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { brandOfRequest } from '@/components/market/brand';
import { MarketShell } from '@/components/market/shell';
import { WayForward } from '@/components/market/way-forward';
import { getDb } from '@/db';
import { currentFanSession, FAN_SESSION_COOKIE } from '@/server/modules/fans';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('entry');
  return { title: t('meTitle'), robots: { index: false } };
}

/**
 * A signed-in fan goes to their partner's resale entry page; anyone else reads how to get here and, when
 * the fan signed in with a partner before, gets that partner's sign-in in its brand.
 */
export default async function FanAccountPage() {
  await connection();
  const session = await currentFanSession((await cookies()).get(FAN_SESSION_COOKIE)?.value, getDb());
  if (session) redirect(`/resale/${session.partnerId}`);
  const [t, partner] = await Promise.all([getTranslations('entry'), brandOfRequest()]);
  return (
    <MarketShell partner={partner} narrow>
      <section className="mk-card mk-empty" data-testid="me-signed-out">
        <h1>{t('meTitle')}</h1>
        <p>{t('meSignedOut')}</p>
        <WayForward partner={partner} />
      </section>
    </MarketShell>
  );
}

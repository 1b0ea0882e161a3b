import type { Metadata } from 'next';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { unlistAction } from '../../../_sell/actions';
import { ConfirmStepPage, confirmStepListing } from '../../../_sell/confirm-step';
import { moneyMajor } from '../../../_sell/reasons';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('listing');
  return { title: t('unlistMetaTitle'), robots: { index: false } };
}

/** The confirmation step of taking a listing off sale (a page of its own: works without JavaScript). */
type Props = { params: Promise<{ listingId: string }>; searchParams: Promise<Record<string, string | undefined>> };

export default async function UnlistPage({ params, searchParams }: Props) {
  await connection();
  const [{ listingId }, query] = await Promise.all([params, searchParams]);
  const step = await confirmStepListing(listingId, query);
  const t = await getTranslations('listing');
  const { listing } = step.view;
  return (
    <ConfirmStepPage
      step={step}
      listingId={listingId}
      testId="unlist-confirm"
      title={t('unlistConfirmTitle')}
      body={t('unlistConfirmBody', {
        count: listing.ticketIds.length,
        price: await moneyMajor(listing.price, listing.currency),
      })}
      form={{
        action: unlistAction,
        hidden: step.returnTo ? { returnTo: step.returnTo } : undefined,
        label: t('unlistConfirm'),
        pendingLabel: t('saving'),
        testId: 'unlist-form',
      }}
      backLabel={t('keepListed')}
    />
  );
}

import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { transferEmail } from '@/server/modules/marketplace';
import { transferAction } from '../../../_sell/actions';
import { ConfirmStepPage, confirmStepListing } from '../../../_sell/confirm-step';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('listing');
  return { title: t('transferMetaTitle'), robots: { index: false } };
}

type Props = { params: Promise<{ listingId: string }>; searchParams: Promise<Record<string, string | undefined>> };

/** The confirmation step of a peer-to-peer transfer: who receives the tickets, and that it cannot be undone. */
export default async function TransferPage({ params, searchParams }: Props) {
  await connection();
  const [{ listingId }, query] = await Promise.all([params, searchParams]);
  const to = transferEmail.safeParse(query.to ?? '');
  if (!to.success) notFound();
  const step = await confirmStepListing(listingId, query);
  const t = await getTranslations('listing');
  return (
    <ConfirmStepPage
      step={step}
      listingId={listingId}
      testId="transfer-confirm"
      title={t('transferConfirmTitle')}
      body={t('transferConfirmBody', { count: step.view.listing.ticketIds.length, email: to.data })}
      form={{
        action: transferAction,
        hidden: { to: to.data, ...(step.returnTo ? { returnTo: step.returnTo } : {}) },
        label: t('transferConfirm'),
        pendingLabel: t('saving'),
        testId: 'transfer-confirm-form',
      }}
      backLabel={t('cancel')}
    />
  );
}

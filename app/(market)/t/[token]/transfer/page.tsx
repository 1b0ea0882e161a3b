import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getTranslations } from 'next-intl/server';
import { fanOf } from '@/components/market/session';
import { MarketShell } from '@/components/market/shell';
import { getDb } from '@/db';
import { secureViewWithoutCode, transferEmail } from '@/server/modules/marketplace';
import { getPartner } from '@/server/modules/partners';
import { ticketTransferAction, ticketTransferStartAction } from '../../../_sell/actions';
import { ListingActionForm } from '../../../_sell/forms';
import { SignInPrompt } from '../../../_sell/parts';
import '../../../market/buy.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('listing');
  return { title: t('sendMetaTitle'), robots: { index: false } };
}

type Props = { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | undefined>> };

/**
 * "Send to a friend" from the secure view, where the partner's P2P_TRANSFER rule allows it: the signed-in
 * owner names the e-mail, then confirms on a second step (it cannot be undone).
 */
export default async function TicketTransferPage({ params, searchParams }: Props) {
  await connection();
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const view = await secureViewWithoutCode(token, getDb());
  if (!view || !view.actions.transfer) notFound();
  const partner = await getPartner(view.ticket.partnerId, getDb());
  const shell = { id: partner.id, name: partner.name, logoUrl: partner.logoUrl };
  const t = await getTranslations('listing');
  const tc = await getTranslations('checkout');
  const fan = await fanOf(partner.id);
  const path = `/t/${token}/transfer`;
  const to = query.to ? transferEmail.safeParse(query.to) : null;
  return (
    <MarketShell partner={shell} narrow>
      <section className="mk-card" aria-labelledby="transfer-title" data-testid="ticket-transfer">
        <h1 id="transfer-title">{to?.success ? t('transferConfirmTitle') : tc('actionTransfer')}</h1>
        <p>
          <strong>{view.ticket.event}</strong> · {tc('ticketId', { id: view.ticket.ticketId })}
        </p>
        {!fan ? (
          <SignInPrompt partnerId={partner.id} partnerName={partner.name} next={path} />
        ) : to?.success ? (
          <>
            <p>{t('transferConfirmBody', { count: 1, email: to.data })}</p>
            <div className="sl-actions">
              <ListingActionForm
                action={ticketTransferAction}
                listingId=""
                hidden={{ token, to: to.data }}
                label={t('transferConfirm')}
                pendingLabel={t('saving')}
                variant="danger"
                testId="transfer-confirm-form"
              />
              <a className="mk-btn mk-btn-secondary mk-btn-block" href={`/t/${token}`}>
                {t('cancel')}
              </a>
            </div>
          </>
        ) : (
          <>
            <p>{t('transferBody')}</p>
            <ListingActionForm
              action={ticketTransferStartAction}
              listingId=""
              hidden={{ token }}
              label={t('transferContinue')}
              pendingLabel={t('saving')}
              variant="secondary"
              emailLabel={t('transferEmail')}
              testId="transfer-form"
            />
            <p>
              <a href={`/t/${token}`}>{t('cancel')}</a>
            </p>
          </>
        )}
      </section>
    </MarketShell>
  );
}

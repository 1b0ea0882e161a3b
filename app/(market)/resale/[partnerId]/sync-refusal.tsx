import { getTranslations } from 'next-intl/server';
import type { SyncOutcome, SyncTarget } from '@/server/modules/marketplace';

type Refused = Exclude<SyncOutcome, { kind: 'SELL' } | { kind: 'NO_ENDPOINT' }>;

/**
 * Sync on demand, refused: the partner's selling entrypoint sent the fan here for a ticket (or order)
 * Encore was never sent, and the partner does not list it for this fan, or cannot be reached, or lists
 * it on a show Encore does not sell. Says which, for whom, and the ways on: the fan's other tickets,
 * another e-mail, and (in the shell) back to the partner.
 */
export async function SyncRefusal({
  outcome,
  target,
  partner,
  fanEmail,
  retryPath,
}: {
  outcome: Refused;
  target: SyncTarget;
  partner: { id: string; name: string };
  fanEmail: string;
  retryPath: string;
}) {
  const t = await getTranslations('entry');
  const values = { partner: partner.name, email: fanEmail };
  const body =
    outcome.kind === 'UNAVAILABLE'
      ? t('unavailable', values)
      : outcome.kind === 'NOT_STORED'
        ? t('syncNotStored', values)
        : 'ticketId' in target
          ? t('syncNotListedTicket', { ...values, ticketId: target.ticketId })
          : t('syncNotListedOrder', { ...values, orderId: target.orderId });
  const login = `/login?partner=${encodeURIComponent(partner.id)}&next=${encodeURIComponent(retryPath)}`;
  return (
    <section className="mk-card mk-empty" data-testid="sync-refused" data-reason={outcome.kind}>
      <h2>{outcome.kind === 'UNAVAILABLE' ? t('syncUnavailableTitle') : t('syncRefusedTitle')}</h2>
      <p role="alert">{body}</p>
      <p>
        <a className="mk-btn" href={outcome.kind === 'UNAVAILABLE' ? retryPath : `/resale/${partner.id}`}>
          {outcome.kind === 'UNAVAILABLE' ? t('syncRetry') : t('syncSeeTickets')}
        </a>
      </p>
      {outcome.kind === 'NOT_LISTED' ? (
        <p>
          <a href={login} data-testid="sync-other-email">
            {t('syncOtherEmail')}
          </a>
        </p>
      ) : null}
    </section>
  );
}

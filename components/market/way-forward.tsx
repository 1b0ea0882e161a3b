import { getTranslations } from 'next-intl/server';
import { fanOf } from './session';
import type { ShellPartner } from './shell';

/** Where a fan stuck on a page with nothing to show goes on: the partner's tickets, its sign-in, or how to get here. */
export async function WayForward({ partner }: { partner: ShellPartner | null }) {
  const t = await getTranslations('wayForward');
  if (!partner) {
    return <p data-testid="way-forward-generic">{t('generic')}</p>;
  }
  const tickets = `/resale/${encodeURIComponent(partner.id)}`;
  if (await fanOf(partner.id)) {
    return (
      <a className="mk-btn" href={tickets} data-testid="way-forward-tickets">
        {t('tickets', { partner: partner.name })}
      </a>
    );
  }
  const login = `/login?${new URLSearchParams({ partner: partner.id, next: tickets })}`;
  return (
    <>
      <p>{t('signInBody', { partner: partner.name })}</p>
      <a className="mk-btn" href={login} data-testid="way-forward-signin">
        {t('signIn', { partner: partner.name })}
      </a>
    </>
  );
}

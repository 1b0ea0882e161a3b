import { getLocale } from 'next-intl/server';
import { CheckIcon } from '@/components/market/icons';
import type { Locale } from '@/server/lib/i18n';
import { type BuyerPromiseFacts, guaranteeTexts } from '@/server/lib/promises';

/** A same-site link to an absolute URL of ours (the terms page): path and query only. */
function localHref(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/**
 * What Encore guarantees the buyer, for this partner and show (checkout, payment page, the order after
 * payment; the confirmation mail says the same from the same facts): the refund on cancellation, the
 * ownership check, a new code where the partner reissues, when the code shows, Encore's terms and whom
 * to ask for help.
 */
export async function GuaranteeBlock({ facts, className }: { facts: BuyerPromiseFacts; className?: string }) {
  const locale = (await getLocale()) as Locale;
  const g = guaranteeTexts(locale, facts);
  return (
    <section
      className={`mk-card mk-guarantee${className ? ` ${className}` : ''}`}
      aria-labelledby="guarantee-heading"
      data-testid="guarantee"
    >
      <h2 id="guarantee-heading">
        <span aria-hidden="true" className="mk-guarantee-icon">
          <CheckIcon />
        </span>{' '}
        {g.title}
      </h2>
      <ul className="mk-guarantee-list">
        {g.items.map((item) => (
          <li key={item}>{item}</li>
        ))}
        <li data-testid="guarantee-delivery">{g.delivery}</li>
      </ul>
      <p className="mk-muted mk-guarantee-help" data-testid="guarantee-support">
        {g.support.lead}{' '}
        {g.support.url ? (
          <a href={g.support.url.href} rel="noopener noreferrer" target="_blank">
            {g.support.url.label}
          </a>
        ) : null}
        {g.support.url && g.support.email ? ' · ' : null}
        {g.support.email ? <a href={g.support.email.href}>{g.support.email.label}</a> : null}
      </p>
      <p className="mk-muted mk-guarantee-help">
        <a href={localHref(g.terms.url)} data-testid="terms-link">
          {g.terms.label}
        </a>
      </p>
    </section>
  );
}

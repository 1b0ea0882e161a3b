import Form from 'next/form';
import Link from '@/components/ui/link';
import type { ReactNode } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { withParams } from '@/components/ui/url';
import { marketPath } from '../../_shared/paths';
import filters from '../../_shared/filters.module.css';
import styles from './market.module.css';

export const MARKET_VIEWS = [
  { id: 'listings', label: 'Listings' },
  { id: 'purchases', label: 'Purchases' },
  { id: 'payouts', label: 'Payouts' },
] as const;
export type MarketView = (typeof MARKET_VIEWS)[number]['id'];

/** The market page's three lists, one at a time (each pages with its own `?page=`). */
export function MarketViews({ partnerId, view }: { partnerId: string; view: MarketView }) {
  return (
    <nav className={styles.views} aria-label="Market lists">
      {MARKET_VIEWS.map((v) => (
        <ButtonLink
          key={v.id}
          href={withParams(marketPath(partnerId), { view: v.id === 'listings' ? undefined : v.id })}
          variant={v.id === view ? 'primary' : 'secondary'}
          aria-current={v.id === view ? 'page' : undefined}
        >
          {v.label}
        </ButtonLink>
      ))}
    </nav>
  );
}

/**
 * A list's filters as a GET form: they live in the URL (shareable, back button works), submitting
 * starts on the first page, and it works without JavaScript.
 */
export function MarketFilters({
  partnerId,
  view,
  label,
  active,
  children,
}: {
  partnerId: string;
  view: MarketView;
  label: string;
  /** A filter is set: offer to clear them. */
  active: boolean;
  children: ReactNode;
}) {
  const clear = withParams(marketPath(partnerId), { view: view === 'listings' ? undefined : view });
  return (
    <Form
      action={marketPath(partnerId)}
      className={`${filters.filters} ${styles.filterBar}`}
      role="search"
      aria-label={label}
    >
      {view !== 'listings' && <input type="hidden" name="view" value={view} />}
      {children}
      <Button type="submit">Apply filters</Button>
      {active && (
        <Link href={clear} className={filters.filterLink}>
          Clear filters
        </Link>
      )}
    </Form>
  );
}

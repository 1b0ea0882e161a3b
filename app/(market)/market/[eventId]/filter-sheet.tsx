import type { PageT } from '@/server/lib/i18n';
import { type buyPage, type MarketSort } from '@/server/modules/fan-pages';
import { param } from '../buy-format';
import { hrefWith, type Query } from './market-parts';

/*
 * The fan's filters and sort in a sheet opened on demand: a native <details> (keyboard-usable, opens and
 * closes without JavaScript) whose summary is the "Filters" button with the count of active filters. The
 * form inside is a plain GET form, so filtering works without JavaScript too.
 */

type T = PageT<'buy'>;
type Facets = NonNullable<Awaited<ReturnType<typeof buyPage>>>['facets'];

/** The filters the fan has on (sort is not a filter): shown on the button and cleared by one link. */
export function activeFilters(query: Query): number {
  return ['ticketOptionId', 'zone', 'section', 'qty'].filter((k) => param(query, k)).length;
}

/** What the sheet and its form are drawn from: the page's query, the show's facets and the way back. */
type FilterProps = {
  eventId: string;
  query: Query;
  showPk: string | undefined;
  returnTo: string | null;
  facets: Facets;
  sort: MarketSort;
  /** A section's name on the seat map, if it has one (sectionLabeler). */
  labelOf: (section: string) => string | null;
  t: T;
};

export function FilterSheet(props: FilterProps) {
  const { eventId, query, t } = props;
  const active = activeFilters(query);
  return (
    <div className="buy-sheet-bar">
      <details className="buy-sheet" data-testid="filter-sheet">
        <summary className="mk-btn mk-btn-secondary buy-sheet-button" data-testid="open-filters">
          {t('filtersButton')}
          {active ? ` · ${t('filtersActive', { count: active })}` : ''}
        </summary>
        <div className="buy-sheet-body">
          <FilterForm {...props} />
        </div>
      </details>
      {active ? (
        <a
          className="buy-clear"
          href={hrefWith(eventId, query, {
            ticketOptionId: undefined,
            zone: undefined,
            qty: undefined,
            page: undefined,
          })}
          data-testid="clear-filters"
        >
          {t('clear')}
        </a>
      ) : null}
    </div>
  );
}

function FilterForm(props: FilterProps) {
  const { eventId, query, showPk, returnTo, facets, sort, labelOf, t } = props;
  return (
    <form
      method="get"
      action={`/market/${eventId}`}
      className="mk-filters buy-filters"
      aria-label={t('filtersHeading')}
    >
      {showPk ? <input type="hidden" name="show" value={showPk} /> : null}
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <div className="mk-field">
        <label htmlFor="f-option">{t('option')}</label>
        <select id="f-option" name="ticketOptionId" defaultValue={param(query, 'ticketOptionId') ?? ''}>
          <option value="">{t('allOptions')}</option>
          {facets.options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.title}
            </option>
          ))}
        </select>
      </div>
      {facets.zones.length ? (
        <div className="mk-field">
          <label htmlFor="f-zone">{t('zone')}</label>
          <select id="f-zone" name="zone" defaultValue={param(query, 'zone') ?? ''}>
            <option value="">{t('allZones')}</option>
            {facets.zones.map((z) => (
              <option key={z} value={z}>
                {labelOf(z) ?? z}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="mk-field">
        <label htmlFor="f-qty">{t('quantity')}</label>
        <select id="f-qty" name="qty" defaultValue={param(query, 'qty') ?? ''} aria-describedby="f-qty-hint">
          <option value="">{t('anyQuantity')}</option>
          {facets.quantities.map((n) => (
            <option key={n} value={String(n)}>
              {t('quantityExactly', { count: n })}
            </option>
          ))}
        </select>
      </div>
      <div className="mk-field">
        <label htmlFor="f-sort">{t('sort')}</label>
        <select id="f-sort" name="sort" defaultValue={sort}>
          <option value="price_asc">{t('sortAsc')}</option>
          <option value="price_desc">{t('sortDesc')}</option>
        </select>
      </div>
      <p id="f-qty-hint" className="mk-hint buy-hint">
        {t('quantityHint')}
      </p>
      <button type="submit" className="mk-btn" data-testid="apply-filters">
        {t('apply')}
      </button>
    </form>
  );
}

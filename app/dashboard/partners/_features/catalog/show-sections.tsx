import type { inferRouterOutputs } from '@trpc/server';
import { Badge } from '@/components/ui/badge';
import { Table } from '@/components/ui/table';
import type { AppRouter } from '@/server/trpc/router';
import { formatMoney } from '../../_shared/format';
import styles from '../../_shared/browser.module.css';
import catalog from './catalog.module.css';

type Detail = inferRouterOutputs<AppRouter>['catalog']['event'];
type ApiShow = Detail['event']['shows'][number];
type ShowMeta = Detail['shows'][number];

function yesNo(value: boolean | undefined) {
  return value ? 'Yes' : 'No';
}

/** The show's ticket options as the partner sent them: price, stock, area, whether they are on sale. */
export function TicketOptions({ show }: { show: ApiShow }) {
  return (
    <section className={catalog.section} aria-label={`Ticket options of ${show.title}`}>
      <h3 className={catalog.subheading}>Ticket options</h3>
      {show.ticketOptions.length === 0 ? (
        <p className={catalog.note}>No ticket options.</p>
      ) : (
        <Table
          label={`Ticket options of ${show.title}`}
          columns={['Option', { label: 'Price', num: true }, { label: 'Stock', num: true }, 'Area', 'On sale']}
        >
          {show.ticketOptions.map((o) => (
            <tr key={o.ticketId}>
              <td>
                <span className={styles.titleCell}>
                  <strong>{o.title}</strong>
                  <code className={`mono ${styles.sub}`}>{o.ticketId}</code>
                </span>
              </td>
              <td className="num">
                {formatMoney(o.price, o.currency) ?? <span className={styles.muted}>No price</span>}
              </td>
              <td className="num">{o.stock ?? '—'}</td>
              <td>{o.area ?? '—'}</td>
              <td>
                <span className={styles.badges}>
                  {o.webVisibility ? <Badge tone="success">Visible</Badge> : <Badge>Hidden</Badge>}
                  {o.webSoldOut && <Badge tone="warning">Sold out</Badge>}
                </span>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

/** The show's price types (Price Detail pricing), or a note that it has none. */
export function PriceTypes({ show }: { show: ApiShow }) {
  const priceTypes = show.priceTypes ?? [];
  return (
    <section className={catalog.section} aria-label={`Price types of ${show.title}`}>
      <h3 className={catalog.subheading}>Price types</h3>
      {priceTypes.length === 0 ? (
        <p className={catalog.note}>None: each ticket option is one product at its own price (Standard).</p>
      ) : (
        <Table
          label={`Price types of ${show.title}`}
          columns={['Price type', { label: 'Stock', num: true }, 'Visible', 'Invisible', 'Sold out']}
        >
          {priceTypes.map((p) => (
            <tr key={p.priceTypeId}>
              <td>
                <span className={styles.titleCell}>
                  <strong>{p.title ?? p.priceTypeId}</strong>
                  {p.title && <code className={`mono ${styles.sub}`}>{p.priceTypeId}</code>}
                </span>
              </td>
              <td className="num">{p.stock ?? '—'}</td>
              <td>{yesNo(p.webVisibility)}</td>
              <td>{yesNo(p.invisible)}</td>
              <td>{p.webSoldOut === undefined ? '—' : yesNo(p.webSoldOut)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

/** The ticket option + price type pairs that sell, with the price that wins for each. */
export function Combinations({ show, meta }: { show: ApiShow; meta: ShowMeta }) {
  const priceTypes = show.priceTypes ?? [];
  return (
    <section className={catalog.section} aria-label={`Combinations of ${show.title}`}>
      <h3 className={catalog.subheading}>Combinations</h3>
      {meta.combinations.length === 0 ? (
        <p className={catalog.note}>
          {priceTypes.length
            ? 'No combinations declared yet: only declared ticket option + price type pairs sell. Partners declare them with POST /v1/events/rules (ruleType COMBINATION).'
            : 'None (Standard pricing).'}
        </p>
      ) : (
        <>
          <p className={catalog.note}>
            Only these pairs sell. A combination&rsquo;s price wins over its ticket option&rsquo;s price; without one,
            the option&rsquo;s price applies.
          </p>
          <Table
            label={`Combinations of ${show.title}`}
            columns={[
              'Ticket option',
              'Price type',
              { label: 'Combination price', num: true },
              { label: 'Option price', num: true },
              { label: 'Face value', num: true },
              'Description',
            ]}
          >
            {meta.combinations.map((c) => (
              <tr key={`${c.ticketOptionId}|${c.priceTypeId}`}>
                <td>
                  <code className="mono">{c.ticketOptionId}</code>
                </td>
                <td>
                  <code className="mono">{c.priceTypeId}</code>
                </td>
                <td className="num">{formatMoney(c.price, c.currency) ?? '—'}</td>
                <td className="num">{formatMoney(c.optionPrice, c.currency) ?? '—'}</td>
                <td className="num">
                  <span className={styles.titleCell}>
                    <strong>{formatMoney(c.faceValue, c.currency) ?? 'No price'}</strong>
                    <span className={styles.sub}>
                      {c.priceFrom === 'combination'
                        ? 'combination price wins'
                        : c.priceFrom === 'option'
                          ? 'option price'
                          : ''}
                    </span>
                  </span>
                </td>
                <td>{c.description ?? '—'}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </section>
  );
}

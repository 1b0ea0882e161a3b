import Link from '@/components/ui/link';
import { Badge } from '@/components/ui/badge';
import { CardBody, SectionCard, Subsection } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { IdLink } from '@/components/ui/id-link';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { TimeCell } from '@/components/ui/time';
import { withParams } from '@/components/ui/url';
import { fromMinorUnits } from '@/server/lib/money';
import type { FanSection, OpsSearchResult } from '@/server/modules/ops';
import { StatusBadge } from '../../partners/_features/market/market-status';
import { formatMoney } from '../../partners/_shared/format';
import { marketPath, partnerPath, ticketPath } from '../../partners/_shared/paths';
import styles from '../../partners/_shared/browser.module.css';
import own from './search.module.css';
import { EndSessionsAction, RefundAction, ResendMailAction } from './actions';

type EmailResult = Extract<OpsSearchResult, { kind: 'email' }>;
type IdResult = Exclude<OpsSearchResult, { kind: 'email' }>;
type Fan = EmailResult['fan'];
type TicketRow = Fan['tickets']['items'][number];
type ListingRow = Fan['listings']['items'][number];
type PurchaseRow = Fan['purchases']['items'][number];

export const searchPath = (q: string, more?: FanSection) => withParams('/dashboard/search', { q, more });

const money = (minor: number, currency: string) => formatMoney(fromMinorUnits(minor, currency), currency) ?? '—';

export const KIND_LABEL: Record<OpsSearchResult['kind'], string> = {
  email: 'an e-mail address',
  ticket: 'our ticket id (tkt_…)',
  listing: 'a listing id (lst_…)',
  payment: 'a payment id (pay_…)',
  intention: 'a purchase id (bi_…, the buy intention)',
  partnerRef: 'a partner’s ticket id or order id (exact match)',
};

const SECTION_LABEL: Record<FanSection, string> = {
  tickets: 'Tickets held',
  listings: 'Listings',
  purchases: 'Purchases',
  payouts: 'Payouts',
  transfers: 'Transfers',
  mails: 'Mails',
  sessions: 'Sessions',
};

const PAYMENT_LABEL: Record<string, string> = {
  paid: 'Paid',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
  pending: 'Pending',
  requires_action: 'Awaiting buyer',
  failed: 'Failed',
  expired: 'Expired',
};

/** A fan's e-mail, linking to their own search (support follows a buyer to their seller and back). */
function EmailLink({ email }: { email: string | null }) {
  if (!email) return <span className="muted">—</span>;
  return (
    <Link href={searchPath(email)} className={own.email}>
      {email}
    </Link>
  );
}

type PartnerKeyed = { partnerId: string | null; partnerName: string | null };

/** Every partner that appears in any of the lists, in the order first seen (mails of no partner last). */
function partnersOf(lists: PartnerKeyed[][]) {
  const seen = new Map<string, string>();
  for (const list of lists) for (const r of list) if (r.partnerId) seen.set(r.partnerId, r.partnerName ?? r.partnerId);
  const out = [...seen].map(([id, name]) => ({ id, name }));
  if (lists.some((l) => l.some((r) => !r.partnerId))) out.push({ id: '', name: 'No partner' });
  return out;
}
const of = <T extends PartnerKeyed>(rows: T[], partnerId: string) =>
  rows.filter((r) => (r.partnerId ?? '') === partnerId);

function TicketTable({ rows }: { rows: TicketRow[] }) {
  return (
    <Table label="Tickets" columns={['Ticket', 'Event', 'Holder', 'Order', 'Status']}>
      {rows.map((t) => (
        <tr key={t.id}>
          <td>
            <IdLink href={ticketPath(t.partnerId, t.id)} id={t.ticketId} />
            <div className={styles.sub}>{t.id}</div>
          </td>
          <td className={styles.wrap}>{t.eventTitle}</td>
          <td>
            <EmailLink email={t.holderEmail} />
          </td>
          <td className={styles.sub}>{t.orderId ?? '—'}</td>
          <td>
            <Badge tone={t.status === 'VALID' ? 'success' : 'danger'}>
              {t.status === 'VALID' ? 'Valid' : 'Invalidated'}
            </Badge>
          </td>
        </tr>
      ))}
    </Table>
  );
}

function ListingTable({ rows }: { rows: ListingRow[] }) {
  return (
    <Table label="Listings" columns={['Listing', 'Status', 'Seller', { label: 'Price', num: true }, 'Listed (UTC)']}>
      {rows.map((l) => (
        <tr key={l.id} data-listing-id={l.id}>
          <td>
            <IdLink href={withParams(marketPath(l.partnerId), { view: 'listings' })} id={l.id} />
            <div className={styles.sub}>{l.eventTitle}</div>
          </td>
          <td>
            <StatusBadge status={l.status} />
          </td>
          <td>
            <EmailLink email={l.sellerEmail} />
          </td>
          <td className="num">
            {money(l.priceMinor, l.currency)}
            {l.ticketCount > 1 && <div className={styles.sub}>× {l.ticketCount}</div>}
          </td>
          <TimeCell value={l.createdAt} />
        </tr>
      ))}
    </Table>
  );
}

/** Purchases with their payment and refunds; a completed, unrefunded, paid one can be refunded. */
function PurchaseTable({ rows }: { rows: PurchaseRow[] }) {
  return (
    <Table
      label="Purchases"
      columns={['Purchase', { label: 'Total', num: true }, 'Payment', 'Refunds', 'Bought (UTC)', ACTIONS_COLUMN]}
    >
      {rows.map((p) => {
        const refundable = p.status === 'COMPLETED' && !p.refundedAt && p.paymentStatus === 'paid';
        return (
          <tr key={p.id} data-purchase-id={p.id}>
            <td>
              <IdLink href={withParams(marketPath(p.partnerId), { view: 'purchases' })} id={p.id} />
              <div className={styles.badges}>
                <StatusBadge status={p.refundedAt ? 'REFUNDED' : p.status} />
              </div>
              <div className={styles.sub}>
                Bought by <EmailLink email={p.buyerEmail} />
              </div>
              <div className={styles.sub}>Listings: {p.listingIds.join(', ')}</div>
            </td>
            <td className="num">{money(p.totalMinor, p.currency)}</td>
            <td>
              {p.paymentId ? (
                <div className={styles.titleCell}>
                  <Badge tone={p.paymentStatus === 'paid' ? 'success' : 'warning'}>
                    {PAYMENT_LABEL[p.paymentStatus ?? ''] ?? p.paymentStatus}
                  </Badge>
                  <code className={`mono ${styles.sub}`}>{p.paymentId}</code>
                </div>
              ) : (
                <span className="muted">No payment</span>
              )}
            </td>
            <td data-testid="refunds">
              {p.refunds.length === 0 ? (
                <span className="muted">—</span>
              ) : (
                p.refunds.map((r) => (
                  <div key={r.id}>
                    {money(r.amountMinor, p.currency)} · {r.status}
                    <div className={styles.sub}>{r.reason}</div>
                  </div>
                ))
              )}
            </td>
            <TimeCell value={p.createdAt} />
            <td>
              {refundable && (
                <RefundAction
                  partnerId={p.partnerId}
                  intentionId={p.id}
                  buyerEmail={p.buyerEmail}
                  total={money(p.totalMinor, p.currency)}
                />
              )}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

function PayoutTable({ rows }: { rows: Fan['payouts']['items'] }) {
  return (
    <Table
      label="Payouts"
      columns={['Payout', 'Status', { label: 'Amount', num: true }, 'Purchase', 'Due (UTC)', 'Paid (UTC)']}
    >
      {rows.map((po) => (
        <tr key={po.id}>
          <td>
            <IdLink href={withParams(marketPath(po.partnerId), { view: 'payouts' })} id={po.id} />
            <div className={styles.sub}>{po.listingId}</div>
          </td>
          <td>
            <StatusBadge status={po.status} />
          </td>
          <td className="num">{money(po.amountMinor, po.currency)}</td>
          <td>
            <Link href={searchPath(po.intentionId)} className="mono">
              {po.intentionId}
            </Link>
          </td>
          <TimeCell value={po.dueAt} />
          <TimeCell value={po.paidAt} />
        </tr>
      ))}
    </Table>
  );
}

function TransferTable({ rows }: { rows: Fan['transfers']['items'] }) {
  return (
    <Table label="Transfers" columns={['Transfer', 'Status', { label: 'Amount', num: true }, 'Payment', 'Made (UTC)']}>
      {rows.map((tr) => (
        <tr key={tr.id}>
          <td>
            <code className="mono">{tr.id}</code>
            {tr.failureReason && <div className={styles.sub}>{tr.failureReason}</div>}
          </td>
          <td>
            <Badge tone={tr.status === 'paid' ? 'success' : tr.status === 'failed' ? 'danger' : 'warning'}>
              {tr.status}
            </Badge>
          </td>
          <td className="num">{money(tr.amountMinor, tr.currency)}</td>
          <td>
            {tr.paymentId ? (
              <Link href={searchPath(tr.paymentId)} className="mono">
                {tr.paymentId}
              </Link>
            ) : (
              '—'
            )}
          </td>
          <TimeCell value={tr.createdAt} />
        </tr>
      ))}
    </Table>
  );
}

function FanPartner({ fan, email, partner }: { fan: Fan; email: string; partner: { id: string; name: string } }) {
  const rows = {
    tickets: of(fan.tickets.items, partner.id),
    listings: of(fan.listings.items, partner.id),
    purchases: of(fan.purchases.items, partner.id),
    payouts: of(fan.payouts.items, partner.id),
    transfers: of(fan.transfers.items, partner.id),
    mails: of(fan.mails.items, partner.id),
    sessions: of(fan.sessions.items, partner.id),
  };
  const openSessions = rows.sessions.filter((s) => s.open).length;
  return (
    <SectionCard
      title={partner.id ? <Link href={partnerPath(partner.id)}>{partner.name}</Link> : partner.name}
      description={partner.id ? <code className="mono">{partner.id}</code> : 'Mails about no partner'}
      data-partner-id={partner.id || undefined}
      actions={
        partner.id && rows.sessions.length > 0 ? (
          <EndSessionsAction partnerId={partner.id} partnerName={partner.name} email={email} open={openSessions} />
        ) : undefined
      }
    >
      <CardBody>
        <div className={styles.stack}>
          {rows.purchases.length > 0 && (
            <Subsection title="Purchases">
              <PurchaseTable rows={rows.purchases} />
            </Subsection>
          )}
          {rows.tickets.length > 0 && (
            <Subsection title="Tickets held">
              <TicketTable rows={rows.tickets} />
            </Subsection>
          )}
          {rows.listings.length > 0 && (
            <Subsection title="Listings">
              <ListingTable rows={rows.listings} />
            </Subsection>
          )}
          {rows.payouts.length > 0 && (
            <Subsection title="Payouts">
              <PayoutTable rows={rows.payouts} />
            </Subsection>
          )}
          {rows.transfers.length > 0 && (
            <Subsection title="Transfers">
              <TransferTable rows={rows.transfers} />
            </Subsection>
          )}
          {rows.mails.length > 0 && (
            <Subsection title="Mails">
              <Table label="Mails" columns={['Mail', 'Status', 'Written (UTC)', ACTIONS_COLUMN]}>
                {rows.mails.map((m) => (
                  <tr key={m.id} data-mail-id={m.id}>
                    <td>
                      <Link href={`/dashboard/mailbox/${encodeURIComponent(m.id)}`} className={styles.wrap}>
                        {m.subject}
                      </Link>
                      <div className={styles.sub}>{m.kind}</div>
                    </td>
                    <td>
                      <Badge tone={m.status === 'failed' ? 'danger' : m.status === 'queued' ? 'warning' : 'success'}>
                        {m.status}
                      </Badge>
                    </td>
                    <TimeCell value={m.createdAt} />
                    <td>
                      <ResendMailAction mailId={m.id} to={email} subject={m.subject} />
                    </td>
                  </tr>
                ))}
              </Table>
            </Subsection>
          )}
          {rows.sessions.length > 0 && (
            <Subsection title="Sessions">
              <Table
                label="Sessions"
                columns={['Session', 'State', 'Signed in (UTC)', 'Last seen (UTC)', 'Expires (UTC)']}
              >
                {rows.sessions.map((s) => (
                  <tr key={s.id}>
                    <td>
                      <code className="mono">{s.id}</code>
                    </td>
                    <td>
                      <Badge tone={s.open ? 'success' : 'neutral'}>
                        {s.open ? 'Open' : s.revokedAt ? 'Ended' : 'Expired'}
                      </Badge>
                    </td>
                    <TimeCell value={s.createdAt} />
                    <TimeCell value={s.lastSeenAt} />
                    <TimeCell value={s.revokedAt ?? s.expiresAt} />
                  </tr>
                ))}
              </Table>
            </Subsection>
          )}
        </div>
      </CardBody>
    </SectionCard>
  );
}

/** A fan: a summary of every section (with "Show all" where it was cut), then one card per partner. */
export function FanResults({ result, more }: { result: EmailResult; more?: FanSection }) {
  const { fan, email } = result;
  const partners = partnersOf(Object.values(fan).map((s) => s.items));
  return (
    <div className={own.sections}>
      <SectionCard
        title={<>Fan {email}</>}
        description="Everything about this e-mail address, across partners, newest first."
      >
        <CardBody>
          <ul className={own.summary} aria-label="What was found">
            {(Object.keys(SECTION_LABEL) as FanSection[]).map((s) => {
              const { items, total } = fan[s];
              return (
                <li key={s} className={styles.nowrap}>
                  {SECTION_LABEL[s]}: <strong>{total}</strong>
                  {total > items.length && (
                    <>
                      {' '}
                      (newest {items.length}
                      {more !== s && (
                        <>
                          , <Link href={searchPath(email, s)}>show more</Link>
                        </>
                      )}
                      )
                    </>
                  )}
                  {s === 'mails' && total > 0 && (
                    <>
                      {' '}
                      · <Link href={withParams('/dashboard/mailbox', { q: email })}>mailbox</Link>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        </CardBody>
      </SectionCard>
      {partners.map((p) => (
        <FanPartner key={p.id} fan={fan} email={email} partner={p} />
      ))}
    </div>
  );
}

/** An id: what it names and what it leads to, one card per partner. */
export function IdResults({ result }: { result: IdResult }) {
  const partners = partnersOf([result.tickets, result.listings, result.purchases]);
  return (
    <div className={own.sections}>
      {partners.map((p) => {
        const tickets = of(result.tickets, p.id);
        const listings = of(result.listings, p.id);
        const purchases = of(result.purchases, p.id);
        return (
          <SectionCard
            key={p.id}
            title={<Link href={partnerPath(p.id)}>{p.name}</Link>}
            description={<code className="mono">{p.id}</code>}
            data-partner-id={p.id}
          >
            <CardBody>
              <div className={styles.stack}>
                {purchases.length > 0 && (
                  <Subsection title="Purchases">
                    <PurchaseTable rows={purchases} />
                  </Subsection>
                )}
                {listings.length > 0 && (
                  <Subsection title="Listings">
                    <ListingTable rows={listings} />
                  </Subsection>
                )}
                {tickets.length > 0 && (
                  <Subsection title="Tickets">
                    <TicketTable rows={tickets} />
                  </Subsection>
                )}
              </div>
            </CardBody>
          </SectionCard>
        );
      })}
    </div>
  );
}

/** Nothing found: what was searched for, read as what. */
export function NothingFound({ result }: { result: OpsSearchResult }) {
  return (
    <EmptyState
      title={`Nothing found for “${result.query}”`}
      description={`Searched as ${KIND_LABEL[result.kind]}. E-mails match in any case; ids match exactly (our ids by their prefix: tkt_, lst_, pay_, bi_).`}
    />
  );
}

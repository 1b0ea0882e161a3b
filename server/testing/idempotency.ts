import type { sql } from 'drizzle-orm';
import { getDb } from '@/db';
import { apiRequest, makePartner, pushEvent, routeParams, testShow } from './fixtures';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** One call as a partner sends it, with `Idempotency-Key: idem` when given: its status, text, envelope and headers. */
export async function idempotentCall(
  handler: Handler,
  path: string,
  key: string,
  opts: { method?: string; body?: unknown; idem?: string; params?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = opts.idem === undefined ? {} : { 'idempotency-key': opts.idem };
  const res = await handler(
    apiRequest(path, { method: opts.method ?? 'POST', key, body: opts.body, headers }),
    routeParams(opts.params ?? {}),
  );
  const text = await res.text();
  return {
    status: res.status,
    text,
    body: JSON.parse(text),
    replayed: res.headers.get('idempotent-replayed'),
    requestId: res.headers.get('x-request-id'),
  };
}

/** The rows a raw query answers. */
export const rows = async <T>(query: ReturnType<typeof sql>) => (await getDb().execute(query)) as unknown as T[];

/** A new partner with an event (show 1) and the body of a `POST /v1/tickets` batch of one ticket for it. */
export async function partnerWithTicketBatch(name: string) {
  const p = await makePartner(name);
  const ref = `evt-${p.partner.id}`;
  await pushEvent(p.apiKey, ref, [testShow('1')]);
  const tickets = [
    {
      externalReferenceEventId: ref,
      showId: '1',
      ticketOptionId: 'GA',
      ticketId: 'T1',
      buyer: 'a@example.com',
      ticketAccess: { type: 'OTHER', locator: 'x' },
    },
  ];
  return { p, tickets };
}

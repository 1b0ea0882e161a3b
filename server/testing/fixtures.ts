import { POST as createEvent } from '@/app/v1/events/route';
import { getDb } from '@/db';
import { createPartnerWithKeys } from '@/server/modules/partners';

let seq = 0;

/** A fresh partner with one partner key and one channels key, unique within the run. */
export async function makePartner(name = 'Test Partner') {
  seq += 1;
  return createPartnerWithKeys(`${name} ${process.pid}-${seq}-${Date.now()}`, getDb());
}

/** A Request as Next.js hands it to a route handler. */
export function apiRequest(
  path: string,
  opts: {
    method?: string;
    key?: string | null;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Request {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = opts.key;
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  return new Request(`http://encore.test${path}`, { method: opts.method ?? (body ? 'POST' : 'GET'), headers, body });
}

/** The route context Next.js passes to handlers of dynamic segments. */
export function routeParams<T extends Record<string, string | string[]>>(params: T) {
  return { params: Promise.resolve(params) };
}

type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Calls a route handler as the partner (or channel) with `key`: the status and the parsed envelope. */
export async function callRoute(
  handler: RouteHandler,
  path: string,
  key: string,
  opts: { method?: string; body?: unknown; params?: Record<string, string> } = {},
) {
  const res = await handler(
    apiRequest(path, { method: opts.method, key, body: opts.body }),
    routeParams(opts.params ?? {}),
  );
  return { status: res.status, body: await res.json() };
}

/**
 * A show as `POST /v1/events` takes it: option GA at 40.00 EUR unless `extra` says otherwise
 * (`ticketOptions`, `priceTypes`, `date`, …).
 */
export function testShow(showId: string, extra: Record<string, unknown> = {}) {
  return {
    title: showId,
    date: '2027-06-01T20:00:00Z',
    showId,
    images: [],
    configuration: {},
    ticketOptions: [{ title: 'GA', ticketId: 'GA', description: 'g', currency: 'EUR', price: '40.00' }],
    ...extra,
  };
}

/**
 * A partner's `POST /v1/events` request for the event `externalReferenceId` with `shows` (titled by its
 * reference, no location); `extra` adds or overrides fields.
 */
export function eventRequest(
  key: string,
  externalReferenceId: string,
  shows: unknown[],
  extra: Record<string, unknown> = {},
) {
  return apiRequest('/v1/events', {
    key,
    body: {
      title: externalReferenceId,
      description: 'd',
      externalReferenceId,
      location: {},
      configuration: {},
      shows,
      ...extra,
    },
  });
}

/** Pushes an event through the `POST /v1/events` route, as a partner does; throws unless it is stored. */
export async function pushEvent(key: string, externalReferenceId: string, shows: unknown[]) {
  const res = await createEvent(eventRequest(key, externalReferenceId, shows));
  if (res.status !== 200) throw new Error(`event ${externalReferenceId} refused: ${await res.text()}`);
}

/** A banner as staff create it: a partner-wide SELL banner, active, with a call to action; `extra` overrides. */
export const testBanner = (partnerId: string, extra: Record<string, unknown> = {}) => ({
  partnerId,
  eventRef: null,
  showId: null,
  placement: 'SELL' as const,
  title: 'Sell your tickets safely',
  description: 'Official resale',
  imageUrl: 'https://cdn.example.com/b.png',
  backgroundColor: '#112233',
  textColor: '#ffffff',
  ctaText: 'Sell now',
  ctaUrl: null,
  ctaEnabled: true,
  ctaBackgroundColor: null,
  ctaTextColor: null,
  onlyWhenPrimarySoldOut: false,
  hoursBeforeShow: null,
  onlyForSellersWithSellable: false,
  active: true,
  ...extra,
});

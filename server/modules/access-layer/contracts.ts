import { defineRoute } from '@/server/lib/contract';
import { bulkAccessLayerExample, buyAccessLayerExample, resaleEntryExample, sellAccessLayerExample } from './examples';
import {
  bulkAccessLayerQuery,
  bulkAccessLayerRequest,
  bulkAccessLayerResponse,
  buyAccessLayerQuery,
  buyAccessLayerResponse,
  resaleEntryQuery,
  resaleEntryResponse,
  sellAccessLayerQuery,
  sellAccessLayerRequest,
  sellAccessLayerResponse,
} from './schemas';

const TAG = 'Smart access layer';

export const sellAccessLayerRoute = defineRoute({
  method: 'POST',
  path: '/v1/wrapper/accesslayer',
  operationId: 'sellAccessLayer',
  tag: TAG,
  summary: "The sell access layer: each ticket's (or order's) sell status and actions for one seller",
  description:
    'Three modes on one URL, decided by the body: `tickets` (tickets mode), `orders` (orders mode) or neither ' +
    '(seller-only: `user` plus the sales flags; with no flag set the answer is just `{ user }`). `tickets` and `orders` together → 400.\n\n' +
    'Eligibility is evaluated on every call: the resale rules in force (most specific wins), the show (LIVE, resale enabled, ' +
    'listing window), the ticket (not invalidated, not used) and its listing. SELLABLE → `SELL`; FOR_SALE → `EDIT` and `P2P` ' +
    "(`enabled` false unless the partner's P2P_TRANSFER rule allows it); SOLD → `DETAILS`; NOT_SELLABLE → none. " +
    '`PENDING_PAYOUT_INFO` is added beside them for a listed or sold ticket while the seller has no active payout account ' +
    '(never in orders mode).\n\n' +
    '`sync` is false for a ticket Encore was never sent: it is still judged by the show and the rules, and its `SELL` URL ' +
    "opens the partner's resale page with `sync=1`, which asks the partner's verification endpoint for the seller's tickets, " +
    'stores that ticket when the partner lists it for the seller and goes on to its sell form (the selling ' +
    'entrypoints answer the same URL for a ticket or order Encore was never sent), or says the partner does not list it.\n\n' +
    'Orders mode aggregates each order (its tickets sent, by id or one per `combinations` entry, plus every ticket of that ' +
    'order Encore knows to be listed or sold), in this order: all NOT_SELLABLE → NOT_SELLABLE; some SELLABLE and some ' +
    'listed or sold → SELLABLE + `MANAGE`; all SELLABLE → SELLABLE + `SELL`; listed or sold in one listing with some listed → ' +
    'FOR_SALE + `EDIT`; one listing, all sold → SOLD + `DETAILS`; several listings → FOR_SALE + `MANAGE`.\n\n' +
    'Ownership is taken from the partner here (it asks about its own user); it is checked live with the partner when the fan ' +
    'enters the selling flow. `autologin: true` puts a fresh one-time token for `user` on every CTA URL. CTA texts follow ' +
    '`lang` (`en`, `es`; others fall back to `en`). `components` is the sell banners configured for the partner. ' +
    `Success answers \`errors: []\`. Up to 5,000 tickets or 1,000 orders per request.`,
  auth: 'partner',
  query: sellAccessLayerQuery,
  body: sellAccessLayerRequest,
  response: sellAccessLayerResponse,
  emptyErrorsArray: true,
  examples: sellAccessLayerExample,
});

const COMPONENTS =
  "Components (Encore's shapes; the spec leaves them open): `button`/`buyButton` (text with the cheapest price, " +
  'enabled while resale is open and tickets are on sale); `modal`/`soldOutModal` when the partner reported the show ' +
  'sold out (inventory API) and resale is open; `banner`/`resaleBanner` while tickets are on sale; and the sell ' +
  'banners staff configured for this placement (`banner`/`sellBanner`). Each carries the buying-flow URL. Texts follow ' +
  '`lang` (`en`, `es`).';

export const buyAccessLayerRoute = defineRoute({
  method: 'GET',
  path: '/v1/wrapper/accesslayer',
  operationId: 'buyAccessLayer',
  tag: TAG,
  summary: "The buy access layer: a show's resale components for the partner's event page",
  description:
    '`type` is required; Encore serves `buy` (any other value → 400). With `type=buy`, `eventId` and `showId` are ' +
    "required (400 naming each); unknown ids → 404 `Event not found` / `Show not found`. Answers the show's `market` " +
    '(active listings and tickets, cheapest ticket with fees, sold out on primary, resale open), the buying-flow `url` ' +
    'and `components`; the GET adds `list`/`listings`: the five cheapest offers, each with its checkout URL. ' +
    COMPONENTS +
    ' Success answers `errors: []`.\n\n' +
    "**From a browser**: this is one of the two operations the partner's publishable key (`pk_live_…`, `pk_test_…` " +
    'for the test data) opens for the widget on its web pages (the other is `getResaleEntry`); every other operation ' +
    'answers a publishable key 403. ' +
    "Answered through CORS to the partner's allowed widget origins (any origin while none are set; set by Encore " +
    'staff): a page of another origin, or a call with no `Origin` once origins are set, is a 403 without CORS ' +
    'headers. The preflight (`OPTIONS`) allows a GET with `Authorization` from any page. Calls with a publishable ' +
    'key are limited per key, origin and client address (600 a minute unless Encore set another figure; 429 with ' +
    '`Retry-After`), and its answer is shared for a second by every page asking for the same show and language. ' +
    'A secret key (`sk_…`) is never answered with CORS headers: it must not be used from a browser.',
  auth: 'partner',
  publishableKey: true,
  query: buyAccessLayerQuery,
  response: buyAccessLayerResponse,
  emptyErrorsArray: true,
  errorStatuses: [404],
  examples: buyAccessLayerExample,
});

export const bulkAccessLayerRoute = defineRoute({
  method: 'POST',
  path: '/v1/wrapper/accesslayer/bulk',
  operationId: 'bulkAccessLayer',
  tag: TAG,
  summary: 'The buy access layer of many shows at once (button, modal and banner only)',
  description:
    'Body: an array of `{ eventId, showIds }` (at least one show each; up to 100 events of 100 shows). Answers one ' +
    'entry per event and show, in the order asked; a show Encore does not know answers `found: false` and no ' +
    'components, so one stale id does not fail the page. Only `button`, `modal` and `banner` components. ' +
    COMPONENTS +
    ' `type` is required (`buy`). Success answers `errors: []`.',
  auth: 'partner',
  query: bulkAccessLayerQuery,
  body: bulkAccessLayerRequest,
  response: bulkAccessLayerResponse,
  emptyErrorsArray: true,
  examples: bulkAccessLayerExample,
});

export const resaleEntryRoute = defineRoute({
  method: 'GET',
  path: '/v1/wrapper/accesslayer/resale-entry',
  operationId: 'getResaleEntry',
  tag: TAG,
  summary: "A fan's resale entry: their tickets by show, what each can do, for the sell widget",
  description:
    "What `<encore-sell>` shows on your pages, and what Encore's static resale entry page shows: every ticket the fan " +
    'holds now (asked live of your verification endpoint, or the tickets you sent Encore when you have none), plus ' +
    'those they sold here, grouped by show (in show order), each with its `status` (`SELLABLE` → `SELL`; on sale → ' +
    '`FOR_SALE` and `EDIT`; `SOLD` → `DETAILS`; `NOT_SELLABLE` → none) and, when it is not sellable, its `reasons` in the ' +
    "fan's words. `url` is the fan's resale entry page (`MANAGE`). When your verification endpoint does not answer, " +
    '`unavailable` is true and `shows` empty.\n\n' +
    'The fan is named by `token`, a one-time token your server minted for them (`GET /v1/auth/oneTimeToken`): it is ' +
    'read, not spent (it still signs the fan in once, until it expires), so a page can be drawn and redrawn from it. A ' +
    'token Encore does not know, one used or expired, and one minted by another partner all answer 404 alike. ' +
    '`autologin=true` puts a fresh one-time token for the fan on every URL (the only write of this GET), so the fan ' +
    'arrives signed in; without it the URLs carry none and the fan signs in by e-mail link. Texts follow `lang` ' +
    '(`en`, `es`).\n\n' +
    '**From a browser**: opened to your publishable key (`pk_…`) like the buy access layer, with the same CORS, ' +
    'widget origins and limits. A secret key is answered too (for your server), never with CORS ' +
    'headers.',
  auth: 'partner',
  publishableKey: true,
  query: resaleEntryQuery,
  response: resaleEntryResponse,
  errorStatuses: [404],
  examples: resaleEntryExample,
});

export const accessLayerRoutes = [sellAccessLayerRoute, buyAccessLayerRoute, bulkAccessLayerRoute, resaleEntryRoute];

/**
 * The prose parts of the API reference that are not operations of our own: webhooks Encore sends and the
 * partner-side interfaces Encore calls. The example answers are checked against the schemas Encore reads
 * them with (server/modules/partners/client.ts) by server/http/docs-guide.test.ts.
 */
import { EXAMPLE_EVENT_ID, EXAMPLE_SHOW_ID } from '@/server/modules/catalog';
import { getChannelSaleExample } from '@/server/modules/channels';

export const INTEGRATION_ORDER = [
  [
    'Events',
    'POST /v1/events creates each event with its shows, ticket options and price types; PUT /v1/events updates it.',
  ],
  [
    'Rules',
    'POST /v1/events/rules declares the ticketOption + priceType combinations (Price Detail) and resale rules.',
  ],
  [
    'Tickets',
    'POST /v1/tickets (queued, high volume) or POST /v1/sync/tickets (answers per ticket) for every ticket sold; then updates, admissions and invalidations as they happen.',
  ],
  [
    'Marketplace',
    'Show the secure view URL (GET /v1/tickets/{ticketId}/url) and the resale market link (GET /v1/events/tickets/salePublicUrl); answer the ticket verification endpoint; receive webhooks.',
  ],
  [
    'Signed-in fans',
    'When a fan signed in on your site clicks through to Encore, call GET /v1/auth/oneTimeToken?user=<their e-mail> and append the answer to the Encore URL as the query parameter token (…&token=ott_…). It works once, for 15 minutes, and signs the fan in for your account only; a spent link shows the fan how to get a fresh one from you.',
  ],
  [
    'Return and embedding',
    'Ask Encore staff to set your allowed return origins (e.g. https://tickets.example.com). Then a returnTo on another origin is refused with 400 and never shown as a back link, and only those origins may frame the buy (/market/…), resale entry (/resale/…) and sell (/sell/…) pages; checkout, payment and confirm pages are never framed. Until they are set, any returnTo is accepted and no site may frame any page.',
  ],
  [
    'Seat map',
    'Send the venue’s map with the event as seating: an image URL (seating.image) and/or SVG markup (seating.svgCode, at most 1 MB; scripts, handlers, styles and outside links are removed when it is stored). An element of the SVG is a section when its id or its data-section equals a ticket’s props.seating.section, trimmed and case-insensitive; data-label (or aria-label) is the name fans read, and a seat may be marked data-seat="<row>-<seat>" inside its section. For example <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><g data-section="A" data-label="Grada A"><rect width="90" height="90"/><circle data-seat="1-7" cx="20" cy="20" r="5"/></g><rect id="B" x="100" width="90" height="90"/></svg> holds the sections of tickets in "A" (seat 7 of row 1 marked) and in "b". The buy access layer then answers a map component (type map, class sectionMap) with each section’s tickets on sale and from-price, and the buy page shows the map above its offers: a section filters them (?section=A).',
  ],
  ['Market data', 'Inventory and leads (spec sections “Market data”); not open in this version of the API.'],
] as const;

export const webhookExamples = [
  {
    family: 'ticket',
    action: 'ticket.updated',
    data: { id: 'T-0001', newOwnerEmail: 'maria.lopez@example.com', oldOwnerEmail: 'ana.garcia@example.com' },
    when: 'A ticket field changes, most often a transfer after a resale purchase. `id` is your ticketId; `oldOwnerEmail` is who held it before.',
  },
  {
    family: 'ticket',
    action: 'ticket.refunded',
    data: {
      ids: ['T-0001'],
      buyerEmail: 'maria.lopez@example.com',
      reason: 'The show was cancelled',
      refundReason: 'SHOW_CANCELLED',
    },
    when: 'A completed resale purchase was refunded afterwards, once per purchase: its show was cancelled (`refundReason` SHOW_CANCELLED, refunded automatically with the fees) or Encore staff refunded it (STAFF_REFUND, `reason` as staff wrote it). `ids` are your ticketIds of the purchase; ownership does not change here (no `ticket.updated`): whether the tickets stay valid is your call.',
  },
  {
    family: 'ticketShield',
    action: 'ticketShield.updated',
    data: { status: true, eventId: EXAMPLE_EVENT_ID, showId: EXAMPLE_SHOW_ID },
    when: 'Protection is switched on (true) or off (false) for an event or show: while on, show the secure view URL.',
  },
  {
    family: 'test',
    action: 'test.ping',
    data: { partnerId: 'ptr_7Hq2', sentAt: '2026-11-26T14:03:00.000Z' },
    when: 'You or Encore staff sent a test message from the dashboard, to check your receiver and its signature check end to end. To a channel’s webhook URL it also names the `channelId`.',
  },
  {
    family: 'channelListing',
    action: 'channelListing.sold',
    data: getChannelSaleExample.response,
    when: 'Channels API only: sent to the channel’s webhook URL, signed with the channel’s secret. A buyer bought (part of) one of its listings: name the tickets handed over at `fulfilmentUrl` before `fulfilBy`.',
  },
  {
    family: 'channelSale',
    action: 'channelSale.refunded',
    data: {
      ...getChannelSaleExample.response,
      status: 'REFUNDED',
      refundedAt: '2026-11-26T14:03:00.000Z',
      reason: 'The tickets were not handed over before the deadline; the buyer was refunded',
    },
    when: 'Channels API only: a sale was not fulfilled by its deadline; the buyer got that part back and the channel is not paid for it.',
  },
] as const;

export const WEBHOOK_HEADERS = `POST /your/webhook/path HTTP/1.1
Content-Type: application/json
webhook-id: msg_2Kx9…            (stable across retries of the same message)
webhook-timestamp: 1779750000    (seconds since the epoch, at sending)
webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=`;

/** Standard Webhooks verification in plain Node (no dependency); `standardwebhooks` on npm does the same. */
export const VERIFY_NODE = `import crypto from 'node:crypto';

// secret: the whsec_… signing secret Encore gave you.
export function verifyEncoreWebhook(secret, headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = String(headers['webhook-signature'] ?? '').split(' ');
  // Refuse old or future messages (replay protection): 5 minutes of tolerance.
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto
    .createHmac('sha256', key)
    .update(\`\${id}.\${timestamp}.\${rawBody}\`) // rawBody: the exact bytes received, not re-serialised JSON
    .digest();
  return signatures.some((s) => {
    const [version, sig] = s.split(',');
    const given = Buffer.from(sig ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}

// Express: keep the raw body, verify, drop duplicates by webhook-id, answer 2xx fast.
app.post('/encore/webhooks', express.raw({ type: 'application/json' }), async (req, res) => {
  if (!verifyEncoreWebhook(process.env.ENCORE_WEBHOOK_SECRET, req.headers, req.body.toString('utf8'))) {
    return res.sendStatus(401);
  }
  const messageId = req.headers['webhook-id'];
  if (await alreadyProcessed(messageId)) return res.sendStatus(200); // at-least-once: a retry of a done message
  const { family, action, data } = JSON.parse(req.body);
  await handle(family, action, data);
  await markProcessed(messageId);
  res.sendStatus(204);
});`;

export const verificationExample = {
  request: 'GET https://api.partner.example.com/encore/tickets?user=ana.garcia%40example.com',
  answer: {
    userEmail: 'ana.garcia@example.com',
    tickets: [
      {
        ticketId: 'T-0001',
        externalReferenceEventId: EXAMPLE_EVENT_ID,
        showId: EXAMPLE_SHOW_ID,
        ticketOptionId: 'platea-a',
        price: 80000,
        currency: 'ARS',
        status: 'VALID',
        tags: ['channel:box-office'],
      },
    ],
  },
};

export const feedExample = {
  request: 'GET https://api.partner.example.com/encore/feed',
  answer: {
    externalReferenceId: EXAMPLE_EVENT_ID,
    shows: [
      {
        showId: EXAMPLE_SHOW_ID,
        status: 'ON_SALE',
        dates: { startsAt: '2027-05-01T21:00:00-03:00' },
        ticketOptions: [
          { ticketId: 'campo', title: 'Campo', currency: 'ARS', price: 55000 },
          { ticketId: 'platea-a', title: 'Platea A', currency: 'ARS', price: 80000 },
        ],
        priceTypes: [
          { priceTypeId: 'general', title: 'General' },
          { priceTypeId: 'student', title: 'Student' },
        ],
        combinations: [
          { ticketOptionId: 'campo', priceTypeId: 'general', price: 55000 },
          { ticketOptionId: 'platea-a', priceTypeId: 'general', price: 80000 },
          { ticketOptionId: 'platea-a', priceTypeId: 'student', price: 64000, description: 'Student, ID at the door' },
        ],
      },
    ],
  },
};

export const CHANGELOG = [
  [
    'v.1.0',
    'First published version: events, rules, tickets (queued and synchronous), admissions, secure and resale URLs, webhooks.',
  ],
] as const;

/**
 * Retrying a call safely with `Idempotency-Key` (server/http/idempotency.ts): the create of the
 * `POST /v1/events` example sent twice. server/http/docs-guide.test.ts sends it to the real handler.
 */
export const idempotencyCall = (baseUrl: string) => `curl -X POST '${baseUrl}/v1/events' \\
  -H "Authorization: $ENCORE_KEY" \\
  -H 'Idempotency-Key: 5f0c6a0e-2b7a-4f7e-9a51-3b1d2c9e8f10' \\
  -H 'Content-Type: application/json' \\
  -d @event.json`;

export const IDEMPOTENCY_REPLAY = `HTTP/1.1 200 OK
Idempotent-Replayed: true
X-Request-Id: …                 (this call's own id)

{"status":200,"data":{…the event, as the first answer gave it…},"errors":null}`;

/**
 * A partner's first afternoon with Encore, on its typed client `@encore/partner-client`: publish an event,
 * sync tickets, send fans to the market, hold a listing for a buyer, receive webhooks. Encore's test suite
 * type-checks and runs this file as it is, in a project made of the package.json and tsconfig.json shown
 * beside it, against the downloaded package and the server, on every change.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import {
  type components,
  EncoreApiError,
  EncoreClient,
  type VerifiedWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '@encore/partner-client';

/** The API's shapes, by the names the OpenAPI document gives them. */
type TicketCreate = components['schemas']['TicketCreate'];

/** One client per API key. Every call below is typed: paths, parameters, bodies and answers. */
export function encoreClient(baseUrl: string, apiKey: string) {
  return new EncoreClient({ baseUrl, apiKey });
}

/** 1. The event, its show and ticket option, and a price rule: resale between 50 % and 120 % of face value. */
export async function publishEvent(encore: EncoreClient, eventRef: string) {
  const event = await encore.post('/v1/events', {
    body: {
      externalReferenceId: eventRef,
      title: 'Quick start live',
      description: 'The quick start event',
      location: { city: 'Madrid', venueName: 'Sala Norte', timeZone: 'Europe/Madrid' },
      configuration: {},
      shows: [
        {
          showId: '1',
          title: 'Night one',
          date: '2027-06-12T21:30:00+02:00',
          images: [],
          configuration: {},
          ticketOptions: [{ ticketId: 'GA', title: 'General', description: 'Standing', currency: 'EUR', price: 40 }],
        },
      ],
    },
  });
  await encore.post('/v1/events/rules', {
    body: [
      {
        externalReferenceEventId: eventRef,
        ruleType: 'PRICE_LIMITS',
        rules: { minPercentOfFace: 50, maxPercentOfFace: 120 },
      },
    ],
  });
  return event;
}

/**
 * 2. The tickets fans bought on your platform; the batch imports in the background. Each ticket built in the
 * `.map()` `satisfies` the API's `TicketCreate`, so a misspelled field (even an optional one) does not compile.
 */
export async function syncTickets(
  encore: EncoreClient,
  eventRef: string,
  tickets: { ticketId: string; buyer: string }[],
) {
  const accepted = await encore.post('/v1/tickets', {
    body: tickets.map(
      (t) =>
        ({
          externalReferenceEventId: eventRef,
          showId: '1',
          ticketOptionId: 'GA',
          ticketId: t.ticketId,
          buyer: t.buyer,
          price: 40,
          ticketAccess: { type: 'URL', locator: `https://tickets.example/${t.ticketId}` },
        }) satisfies TicketCreate,
    ),
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    const batch = await encore.get('/v1/tickets/batches/{batchId}', { path: { batchId: accepted.batchId } });
    if (batch.status === 'completed') return batch;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`batch ${accepted.batchId} did not complete`);
}

/**
 * 3. Where to send fans: the show's resale market, and a ticket holder's selling flow. `returnTo` is where
 * Encore's pages lead back to on your site (required for the buying flow).
 */
export async function fanUrls(encore: EncoreClient, eventRef: string, ticketId: string) {
  const returnTo = `https://tickets.example/events/${eventRef}`;
  const buyingUrl = await encore.get('/v1/marketplace/buyingflow/url/entrypoint', {
    query: { externalReferenceEventId: eventRef, showId: '1', returnTo, lang: 'es' },
  });
  const sellingUrl = await encore.get('/v1/marketplace/sellingflow/url/entrypoint', { query: { ticketId, returnTo } });
  return { buyingUrl, sellingUrl };
}

/** 4. What is on sale for the show, cheapest first, with the fees a buyer pays shown up front. */
export async function listedTickets(encore: EncoreClient, eventRef: string) {
  const listed = await encore.get('/v1/marketplace/items/events/{eventId}/listedTickets', {
    path: { eventId: eventRef },
    query: { showId: '1' },
  });
  return [...listed].sort((a, b) => (a.pricePerTicketWithFees ?? 0) - (b.pricePerTicketWithFees ?? 0));
}

/**
 * 5. Hold a listing for a buyer on your own checkout. Every POST carries an `Idempotency-Key` (a new one per
 * call, the same on the client's own retries); pass your own, made from your cart's id, and sending the call
 * again later (after a restart of yours) answers the first call's hold again, `replayed`, instead of a second
 * one. A listing another buyer holds answers 409, thrown as an `EncoreApiError`: offer another one.
 */
export async function holdForBuyer(encore: EncoreClient, listingId: string, buyer: string, cartId: string) {
  try {
    const hold = await encore.request('POST', '/v1/marketplace/buyingflow/buyIntention', {
      body: { items: [listingId], user: buyer },
      idempotencyKey: `hold-${cartId}`,
    });
    return { intention: hold.data, replayed: hold.replayed };
  } catch (err) {
    if (err instanceof EncoreApiError && err.status === 409) return null;
    throw err; // err.code, err.details (each bad field) and err.requestId (for Encore's support) say why
  }
}

/**
 * 6. Your webhook receiver (Node's http here; any framework that hands you the raw body works alike): the
 * signature is checked on the body as received, a message is handled once however often it is delivered
 * (by its id), and the answer is a quick 2xx. A message that fails the check gets a 400 and is not acted on.
 */
export function webhookReceiver(signingSecret: string, handle: (message: VerifiedWebhook) => Promise<void>) {
  const handled = new Set<string>(); // in production: a unique key in your database
  return async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let message: VerifiedWebhook;
    try {
      message = verifyWebhook({ secret: signingSecret, payload: Buffer.concat(chunks), headers: req.headers });
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      res.writeHead(400, { 'content-type': 'text/plain' }).end(err.message);
      return;
    }
    if (!handled.has(message.id)) {
      handled.add(message.id);
      await handle(message);
    }
    res.writeHead(204).end();
  };
}

/**
 * 7. What a message means for you. Its `body` is typed by its `action` (the messages the OpenAPI document
 * lists under `webhooks`): each `case` narrows `data`, and a field Encore does not send is a compile error.
 * An Encore newer than your package may send an action it does not know yet: it lands in `default`.
 */
export function whatHappened({ body }: VerifiedWebhook): string {
  switch (body.action) {
    case 'ticket.updated':
      return `ticket ${body.data.id} now belongs to ${body.data.newOwnerEmail}: reissue it to them`;
    case 'ticket.refunded':
      return `tickets ${body.data.ids.join(', ')} refunded to ${body.data.buyerEmail} (${body.data.refundReason})`;
    case 'ticketShield.updated':
      return `protection ${body.data.status ? 'on' : 'off'} for show ${body.data.showId} of event ${body.data.eventId}`;
    case 'test.ping':
      return `test message from Encore, sent at ${body.data.sentAt}`;
    default:
      return `not handled by this receiver: ${body.action}`;
  }
}

/**
 * 8. Run it (`npm start`, with ENCORE_URL and your test key in ENCORE_KEY): publishes an event, syncs a ticket
 * and prints where to send fans; given ENCORE_WEBHOOK_SECRET (your endpoint's `whsec_…`), it then receives
 * webhooks on port 3000 and prints what each one means.
 */
export async function main() {
  const encore = encoreClient(process.env.ENCORE_URL ?? 'https://encore.example', process.env.ENCORE_KEY ?? '');
  const eventRef = `quick-start-${Date.now()}`;
  await publishEvent(encore, eventRef);
  const batch = await syncTickets(encore, eventRef, [{ ticketId: `${eventRef}-1`, buyer: 'ana@example.com' }]);
  console.log(`${eventRef}: ${batch.imported} ticket imported`);
  const { buyingUrl, sellingUrl } = await fanUrls(encore, eventRef, `${eventRef}-1`);
  console.log(`buy: ${buyingUrl}\nsell: ${sellingUrl}`);
  const secret = process.env.ENCORE_WEBHOOK_SECRET;
  if (secret) {
    const receive = webhookReceiver(secret, async (message) => console.log(whatHappened(message)));
    createServer((req, res) => void receive(req, res)).listen(3000);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

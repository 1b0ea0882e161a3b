import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { POST as cancelEvent } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { POST as applyRules } from '@/app/v1/events/rules/route';
import { POST as createEvent, PUT as updateEvent } from '@/app/v1/events/route';
import { GET as salePublicUrl } from '@/app/v1/events/tickets/salePublicUrl/route';
import { GET as oneTimeToken } from '@/app/v1/auth/oneTimeToken/route';
import { GET as channelsMe } from '@/app/v1/channels/me/route';
import { GET as listChannelListings } from '@/app/v1/channels/listings/route';
import { GET as listChannelSales } from '@/app/v1/channels/sales/route';
import { GET as getChannelSale } from '@/app/v1/channels/sales/[saleId]/route';
import { POST as fulfilChannelSale } from '@/app/v1/channels/sales/[saleId]/fulfilment/route';
import { POST as upsertChannelListings } from '@/app/v1/channels/listings/bulk/route';
import {
  DELETE as deleteChannelListing,
  GET as getChannelListing,
  PUT as upsertChannelListing,
} from '@/app/v1/channels/listings/[listingId]/route';
import { GET as me } from '@/app/v1/me/route';
import { GET as openapiJson } from '@/app/v1/openapi.json/route';
import { POST as syncTickets } from '@/app/v1/sync/tickets/route';
import { POST as admitTickets } from '@/app/v1/tickets/batch/eventAdmission/route';
import { GET as getBatch } from '@/app/v1/tickets/batches/[batchId]/route';
import { POST as admitTicket } from '@/app/v1/tickets/[ticketId]/eventAdmission/route';
import { DELETE as deleteTicket, PUT as updateTicket } from '@/app/v1/tickets/[ticketId]/route';
import { GET as secureUrl } from '@/app/v1/tickets/[ticketId]/url/route';
import { POST as createTickets } from '@/app/v1/tickets/route';
import { POST as buyIntention } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { GET as buyingFlowUrl } from '@/app/v1/marketplace/buyingflow/url/entrypoint/route';
import { POST as checkoutUrl } from '@/app/v1/marketplace/checkout/url/route';
import { GET as listedTickets } from '@/app/v1/marketplace/items/events/[eventId]/listedTickets/route';
import { DELETE as removeListing } from '@/app/v1/marketplace/items/ticket/[ticketId]/route';
import { GET as listingByTicket } from '@/app/v1/marketplace/listings/ticket/[ticketId]/route';
import { GET as listingDetailsUrl } from '@/app/v1/marketplace/sellingflow/details/url/route';
import { GET as orderSellingFlowUrl } from '@/app/v1/marketplace/sellingflow/url/order/entrypoint/route';
import { GET as sellingFlowUrl } from '@/app/v1/marketplace/sellingflow/url/entrypoint/route';
import { GET as buyAccessLayer, POST as sellAccessLayer } from '@/app/v1/wrapper/accesslayer/route';
import { GET as resaleEntry } from '@/app/v1/wrapper/accesslayer/resale-entry/route';
import { POST as bulkAccessLayer } from '@/app/v1/wrapper/accesslayer/bulk/route';
import { POST as saveLead } from '@/app/v1/marketdata/ticket-leads/route';
import { POST as saveLeads } from '@/app/v1/marketdata/ticket-leads/bulk/route';
import { POST as saveUserLead } from '@/app/v1/marketdata/users/route';
import { POST as saveUserLeads } from '@/app/v1/marketdata/users/bulk/route';
import { PUT as putInventory } from '@/app/v1/marketdata/events/[externalReferenceId]/inventory/route';
import { PUT as putInventoryDetails } from '@/app/v1/marketdata/events/[externalReferenceId]/inventory/details/route';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/db';
import { channelListings, channelSales, listings } from '@/db/schema';
import { issueOneTimeToken } from '@/server/modules/fans';
import { createBuyIntention, createListing, EXAMPLE_SELLER } from '@/server/modules/marketplace';
import { EXAMPLE_ORDER, type ExampleOperation } from '@/server/testing/example-order';
import { payOnSandbox } from '@/server/testing/payments';
import { processBatch } from '@/server/modules/tickets';
import { apiRequest, makePartner, routeParams } from '@/server/testing/fixtures';
import type { RouteContract } from '@/server/lib/contract';
import { buildOpenApiDocument } from './openapi';
import { allRoutes } from './registry';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * The handler of every operation, called in the spec's integration order (EXAMPLE_ORDER) so each example
 * finds what the earlier ones created. The batch is read after the ticket job ran.
 */
const HANDLERS: Record<ExampleOperation, Handler> = {
  getMe: me as Handler,
  getChannelsMe: channelsMe as Handler,
  getOpenApiDocument: openapiJson as Handler,
  createEvent: createEvent as Handler,
  updateEvent: updateEvent as Handler,
  applyRules: applyRules as Handler,
  syncTickets: syncTickets as Handler,
  createTickets: createTickets as Handler,
  getTicketBatch: getBatch as Handler,
  updateTicket: updateTicket as Handler,
  getSecureTicketUrl: secureUrl as Handler,
  getSalePublicUrl: salePublicUrl as Handler,
  getBuyingFlowUrl: buyingFlowUrl as Handler,
  getSellingFlowUrl: sellingFlowUrl as Handler,
  getOrderSellingFlowUrl: orderSellingFlowUrl as Handler,
  getListingDetailsUrl: listingDetailsUrl as Handler,
  getListingByTicket: listingByTicket as Handler,
  getListedTickets: listedTickets as Handler,
  upsertChannelListing: upsertChannelListing as Handler,
  upsertChannelListings: upsertChannelListings as Handler,
  getChannelListing: getChannelListing as Handler,
  listChannelListings: listChannelListings as Handler,
  deleteChannelListing: deleteChannelListing as Handler,
  sellAccessLayer: sellAccessLayer as Handler,
  getResaleEntry: resaleEntry as Handler,
  saveLead: saveLead as Handler,
  saveUserLead: saveUserLead as Handler,
  saveLeads: saveLeads as Handler,
  saveUserLeads: saveUserLeads as Handler,
  putInventory: putInventory as Handler,
  putInventoryDetails: putInventoryDetails as Handler,
  buyAccessLayer: buyAccessLayer as Handler,
  bulkAccessLayer: bulkAccessLayer as Handler,
  getCheckoutUrl: checkoutUrl as Handler,
  createBuyIntention: buyIntention as Handler,
  listChannelSales: listChannelSales as Handler,
  getChannelSale: getChannelSale as Handler,
  fulfilChannelSale: fulfilChannelSale as Handler,
  removeListing: removeListing as Handler,
  admitTicket: admitTicket as Handler,
  admitTickets: admitTickets as Handler,
  deleteTicket: deleteTicket as Handler,
  cancelEvent: cancelEvent as Handler,
  getOneTimeToken: oneTimeToken as Handler,
};
const ORDER = EXAMPLE_ORDER.map((id) => [id, HANDLERS[id]] as const);

/** A fan buys one ticket of a channel's listing through the buying flow and pays: the sale's id. */
async function buyFromChannel(partnerId: string, externalId: string): Promise<string> {
  const [mirror] = await getDb()
    .select({ id: listings.id })
    .from(listings)
    .innerJoin(channelListings, eq(channelListings.id, listings.channelListingId))
    .where(and(eq(channelListings.externalId, externalId), eq(listings.status, 'ACTIVE')))
    .orderBy(listings.channelSlot)
    .limit(1);
  const intention = await createBuyIntention(
    partnerId,
    { items: [mirror.id], user: 'lucia.fernandez@example.com' },
    getDb(),
  );
  expect((await payOnSandbox(intention.paymentUrl)).status).toBe(303);
  const [sale] = await getDb()
    .select({ id: channelSales.id })
    .from(channelSales)
    .where(eq(channelSales.listingId, mirror.id));
  return sale.id;
}

const byId = new Map(allRoutes.map((r) => [r.operationId, r]));

describe('route examples', () => {
  it.each(allRoutes.map((r) => [r.operationId, r] as const))('%s has examples that match its schemas', (_id, r) => {
    expect(r.examples, 'no examples').toBeDefined();
    const ex = r.examples!;
    if (r.body) {
      expect(ex.body, 'no request example').toBeDefined();
      const parsed = r.body.safeParse(ex.body);
      expect(parsed.error?.issues ?? []).toEqual([]);
    } else expect(ex.body).toBeUndefined();
    for (const [schema, value] of [
      [r.params, ex.params],
      [r.query, ex.query],
    ] as const) {
      if (schema) expect(schema.safeParse(value).error?.issues ?? []).toEqual([]);
      else expect(value).toBeUndefined();
    }
    expect(ex.response, 'no response example').toBeDefined();
    expect(r.response.safeParse(ex.response).error?.issues ?? []).toEqual([]);
  });

  it('puts them in the OpenAPI document with a curl line', () => {
    const doc = buildOpenApiDocument(allRoutes);
    for (const r of allRoutes) {
      const op = (doc.paths[r.path] as Record<string, Record<string, unknown>>)[r.method.toLowerCase()];
      const ok = op.responses as Record<string, { content: { 'application/json': { examples: unknown } } }>;
      expect(ok['200'].content['application/json'].examples, r.operationId).toBeDefined();
      if (r.body) expect(JSON.stringify(op.requestBody)).toContain('"examples"');
      expect(op['x-curl']).toMatch(new RegExp(`^curl -X ${r.method} '`));
    }
  });

  it('every operation is exercised in the order below', () => {
    expect(ORDER.map(([id]) => id).sort()).toEqual(allRoutes.map((r) => r.operationId).sort());
  });

  it('work when pasted: each example, sent in integration order to the real handler, answers 200', async () => {
    const partner = await makePartner('Examples');
    const captured: Record<string, unknown> = {};
    let batchId = '';
    let listingId = '';
    let saleId = '';
    for (const [id, handler] of ORDER) {
      const r = byId.get(id) as RouteContract;
      const ex = { ...r.examples } as { body: unknown[] } & NonNullable<RouteContract['examples']>;
      if (id === 'getBuyingFlowUrl') {
        // What the selling flow does for a fan: list two tickets (Encore ids, known only now).
        const partnerId = partner.partner.id;
        listingId = (
          await createListing({ partnerId, sellerEmail: EXAMPLE_SELLER, ticketIds: ['T-0002'], price: 85000 }, getDb())
        ).id;
        await createListing({ partnerId, sellerEmail: EXAMPLE_SELLER, ticketIds: ['T-0003'], price: 80000 }, getDb());
      }
      if (id === 'getResaleEntry')
        ex.query = {
          ...ex.query,
          token: await issueOneTimeToken(partner.partner.id, EXAMPLE_SELLER, 'email', getDb()),
        };
      if (id === 'listChannelSales') saleId = await buyFromChannel(partner.partner.id, 'RH-88124');
      // Listing ids are Encore's; the examples say so.
      if (id === 'getCheckoutUrl') ex.body = { listingIds: [listingId] } as unknown as unknown[];
      if (id === 'createBuyIntention') ex.body = { ...(ex.body as object), items: [listingId] } as unknown as unknown[];
      // The batch id is Encore's, known only once POST /v1/tickets answered; the example says so.
      const params =
        id === 'getTicketBatch'
          ? { batchId }
          : id === 'getChannelSale' || id === 'fulfilChannelSale'
            ? { saleId }
            : (ex.params ?? {});
      if (id === 'getTicketBatch') await processBatch(batchId, getDb());
      let url = r.path;
      for (const [k, v] of Object.entries(params)) url = url.replace(`{${k}}`, encodeURIComponent(v));
      if (ex.query) url += `?${new URLSearchParams(ex.query)}`;
      const key = r.auth === 'channels' ? partner.channelsApiKey : r.auth === 'partner' ? partner.apiKey : null;
      const res = await handler(apiRequest(url, { method: r.method, key, body: ex.body }), routeParams(params));
      const body = await res.json();
      expect({ id, status: res.status, errors: r.raw ? null : body.errors }).toEqual({
        id,
        status: 200,
        errors: r.raw ? null : r.emptyErrorsArray ? [] : null,
      });
      const data = r.raw ? body : body.data;
      expect(r.response.safeParse(data).error?.issues ?? [], id).toEqual([]);
      if (id === 'createTickets') batchId = data.batchId;
      // Ticket imports answer 200 with a result per ticket: every example ticket must be imported.
      if (id === 'syncTickets') expect(data).toMatchObject({ failed: 0, imported: ex.body.length });
      if (id === 'getTicketBatch') expect(data).toMatchObject({ status: 'completed', failed: 0, errors: [] });
      captured[id] = data;
    }
    // Refreshes the stored answers shown in the docs: UPDATE_EXAMPLES=1 npx vitest run server/http/examples.test.ts
    // Each module's file keeps the operations it holds, in its order.
    if (process.env.UPDATE_EXAMPLES) {
      for (const mod of ['catalog', 'tickets', 'marketplace', 'access-layer', 'market-data']) {
        const file = path.join(process.cwd(), 'server/modules', mod, 'response-examples.json');
        const ids = Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>);
        fs.writeFileSync(file, `${JSON.stringify(Object.fromEntries(ids.map((i) => [i, captured[i]])), null, 2)}\n`);
      }
    }
  });
});

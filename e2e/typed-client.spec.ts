import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { baseURL, createPartner, listTicket } from './helpers';

const QUICK_START = path.join(process.cwd(), 'docs/quick-start');
/** The quick start's functions as this test uses them (their exact types come from the generated client). */
interface QuickStart {
  encoreClient(baseUrl: string, apiKey: string): object;
  publishEvent(encore: object, eventRef: string): Promise<unknown>;
  syncTickets(encore: object, eventRef: string, tickets: { ticketId: string; buyer: string }[]): Promise<unknown>;
  fanUrls(encore: object, eventRef: string, ticketId: string): Promise<{ buyingUrl: string; sellingUrl: string }>;
  listedTickets(encore: object, eventRef: string): Promise<{ listingId: string }[]>;
  holdForBuyer(
    encore: object,
    listingId: string,
    buyer: string,
    idempotencyKey: string,
  ): Promise<{ intention: unknown; retried: unknown; replayed: boolean }>;
}

const bin = (name: string) => path.join(process.cwd(), 'node_modules/.bin', name);

/**
 * Issue 33: the OpenAPI document is good enough to generate a client from. As a partner would: generate
 * the types from the running server's /v1/openapi.json with openapi-typescript's CLI, type-check the quick
 * start (docs/quick-start/partner-integration.ts, what /docs shows) against them, then run it.
 */
test('a client generated from /v1/openapi.json type-checks and runs the quick-start integration', async () => {
  test.setTimeout(120_000);
  const generated = path.join(QUICK_START, 'encore-api.d.ts');
  execFileSync(bin('openapi-typescript'), [`${baseURL}/v1/openapi.json`, '-o', generated], { stdio: 'pipe' });
  expect(readFileSync(generated, 'utf8')).toContain('"/v1/marketplace/buyingflow/buyIntention"');
  // A type error in the quick start against the generated types fails here, with tsc's message.
  try {
    execFileSync(bin('tsc'), ['-p', path.join(QUICK_START, 'tsconfig.json')], { encoding: 'utf8' });
  } catch (err) {
    throw new Error(
      `the quick start does not type-check against the generated client:\n${(err as { stdout: string }).stdout}`,
    );
  }

  // Imported by path, not by name: the root type-check must not follow it to types that exist only once generated.
  const quickStart = (await import(path.join(QUICK_START, 'partner-integration.ts'))) as QuickStart;
  const { partnerId, apiKey } = await createPartner('Typed client e2e');
  const encore = quickStart.encoreClient(baseURL, apiKey);
  const eventRef = `QS-${Date.now()}`;

  const event = await quickStart.publishEvent(encore, eventRef);
  expect(event).toMatchObject({ externalReferenceId: eventRef });

  const batch = await quickStart.syncTickets(encore, eventRef, [
    { ticketId: `${eventRef}-T1`, buyer: 'ana@example.com' },
    { ticketId: `${eventRef}-T2`, buyer: 'ana@example.com' },
  ]);
  expect(batch).toMatchObject({ status: 'completed', imported: 2, failed: 0 });

  const urls = await quickStart.fanUrls(encore, eventRef, `${eventRef}-T1`);
  expect(urls.buyingUrl).toMatch(new RegExp(`^${baseURL}/`));
  expect(urls.sellingUrl).toMatch(new RegExp(`^${baseURL}/`));

  // Nothing on sale until a fan lists a ticket (the partner API has no call for that: fans do it).
  expect(await quickStart.listedTickets(encore, eventRef)).toEqual([]);
  const { listingId } = await listTicket({
    partnerId,
    sellerEmail: 'ana@example.com',
    ticketId: `${eventRef}-T1`,
    price: '45',
  });
  const listed = await quickStart.listedTickets(encore, eventRef);
  expect(listed.map((l) => l.listingId)).toEqual([listingId]);
  expect(listed[0]).toMatchObject({ currency: 'EUR', price: 45, ticketCount: 1 });

  const held = await quickStart.holdForBuyer(encore, listingId, 'luis@example.com', `hold-${eventRef}`);
  expect(held.intention).toMatchObject({ status: 'PENDING', items: [listingId], user: 'luis@example.com' });
  expect(held.retried).toEqual(held.intention);
  expect(held.replayed).toBe(true);
});

test('/docs shows that quick start, as the file the test above runs, and how to generate the client', async ({
  page,
}) => {
  await page.goto('/docs');
  const section = page.locator('h2#quick-start');
  await expect(section).toHaveText('Quick start: a typed client');
  await expect(
    page.getByText(/npx openapi-typescript http:\/\/localhost:\d+\/v1\/openapi\.json -o encore-api\.d\.ts/),
  ).toBeVisible();
  const source = readFileSync(path.join(QUICK_START, 'partner-integration.ts'), 'utf8');
  const shown = await page.locator('pre', { hasText: 'export function encoreClient' }).innerText();
  expect(shown.trim()).toBe(source.trim());
});

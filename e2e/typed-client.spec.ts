import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { baseURL, createPartner, listTicket, RUN, setUp } from './helpers';

/** The quick start's exports and the package's, as the root type-check sees them (from client/src). */
type QuickStart = typeof import('../docs/quick-start/partner-integration');
type PartnerClient = typeof import('@encore/partner-client');
type VerifiedWebhook = import('@encore/partner-client').VerifiedWebhook;

const ROOT = process.cwd();
const CLIENT = path.join(ROOT, 'client');
const QUICK_START_DIR = path.join(ROOT, 'docs/quick-start');
const QUICK_START = path.join(QUICK_START_DIR, 'partner-integration.ts');

/**
 * What `npm install` does for the quick start project's dev dependencies (typescript, tsx, @types/node at
 * the versions Encore builds with: client/src/readme.test.ts), without the network: Encore's own copies,
 * linked where npm would put them, with their commands in node_modules/.bin.
 */
function linkDevDependencies(dir: string) {
  const { devDependencies } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  for (const name of Object.keys(devDependencies)) {
    mkdirSync(path.dirname(path.join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name));
  }
  mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync('../typescript/bin/tsc', path.join(dir, 'node_modules/.bin/tsc'));
  symlinkSync('../tsx/dist/cli.mjs', path.join(dir, 'node_modules/.bin/tsx'));
}

/** `npm run <script>` in the partner's project: its output, or an error with tsc's (or the run's) own. */
function npmRun(script: string, env: Record<string, string> = {}): string {
  try {
    return execFileSync('npm', ['run', '--silent', script], {
      cwd: partnerDir,
      encoding: 'utf8',
      env: { ...process.env, ...env },
      stdio: 'pipe',
    });
  } catch (err) {
    const { stdout, stderr } = err as { stdout: string; stderr: string };
    throw new Error(`npm run ${script} failed:\n${stdout}\n${stderr}`);
  }
}

/**
 * The typed client is a package (`client/`, `@encore/partner-client`), generated from the OpenAPI
 * document on every build. As a partner would use it: the tarball downloaded from the running server
 * (`/downloads/encore-partner-client.tgz`, the files `npm pack` in its folder packs), unpacked into a
 * project of its own beside a copy of the quick start (docs/quick-start/partner-integration.ts, what /docs
 * and the package's README show), type-checked there against the package's .d.ts and run against the built
 * server, with the package's own `dist/` (not its sources) behind every call.
 */
let partnerDir = '';
let packedFiles: string[] = [];
let downloadedFiles: string[] = [];
let quickStart: QuickStart;
let client: PartnerClient;

/** The build `npm run build` (or `npm test`'s first phase) made must be of the sources as they are now. */
function assertBuiltFromCurrentSources() {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  const dist = path.join(CLIENT, 'dist');
  const built = (() => {
    try {
      return Math.min(...files(dist).map((f) => statSync(f).mtimeMs));
    } catch {
      return 0;
    }
  })();
  const sources = files(path.join(CLIENT, 'src')).filter((f) => !f.endsWith('.test.ts'));
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
  if (built < newest) {
    throw new Error('client/dist is missing or older than client/src: run `npm run client:build` (or `npm run build`)');
  }
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  assertBuiltFromCurrentSources();
  partnerDir = mkdtempSync(path.join(os.tmpdir(), 'encore-partner-'));
  // What `npm pack` in client/ would pack (no `prepack`: the build is checked above)...
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--dry-run', '--json'], { cwd: CLIENT, encoding: 'utf8' }),
  ) as { filename: string; files: { path: string }[] }[];
  packedFiles = packed.files.map((f) => f.path).sort();
  // ...is what the running server hands out, under the name npm gives it.
  const download = await fetch(`${baseURL}/downloads/${packed.filename}`);
  expect([download.status, download.headers.get('content-type')]).toEqual([200, 'application/gzip']);
  const tarball = path.join(partnerDir, packed.filename);
  writeFileSync(tarball, Buffer.from(await download.arrayBuffer()));
  const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
  downloadedFiles = listed.map((f) => f.replace(/^package\//, '')).sort();
  const installed = path.join(partnerDir, 'node_modules/@encore/partner-client');
  mkdirSync(installed, { recursive: true });
  // The package has no dependencies: unpacking it is all `npm install <tarball>` would do.
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  // The project as /docs and the README show it: these three files, as they are.
  for (const file of ['partner-integration.ts', 'package.json', 'tsconfig.json']) {
    copyFileSync(path.join(QUICK_START_DIR, file), path.join(partnerDir, file));
  }
  linkDevDependencies(partnerDir);
  quickStart = (await import(path.join(partnerDir, 'partner-integration.ts'))) as QuickStart;
  client = (await import(path.join(installed, 'dist/index.js'))) as PartnerClient;
});

test.afterAll(() => {
  if (partnerDir) rmSync(partnerDir, { recursive: true, force: true });
});

test('the server hands out what npm pack in client/ packs: the built package, its README and licence', async () => {
  expect(downloadedFiles).toEqual(packedFiles);
  expect(packedFiles).toEqual(
    expect.arrayContaining([
      'LICENSE',
      'README.md',
      'package.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/client.js',
      'dist/webhooks.js',
      'dist/generated/encore-api.d.ts',
    ]),
  );
  expect(
    packedFiles.filter((f) => !f.startsWith('dist/') && !['LICENSE', 'README.md', 'package.json'].includes(f)),
  ).toEqual([]);
  expect(packedFiles.filter((f) => /\.test\.|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
  const readme = readFileSync(path.join(partnerDir, 'node_modules/@encore/partner-client/README.md'), 'utf8');
  expect(readme).toContain('/downloads/encore-partner-client-');
  const manifest = JSON.parse(
    readFileSync(path.join(partnerDir, 'node_modules/@encore/partner-client/package.json'), 'utf8'),
  );
  expect([manifest.license, manifest.publishConfig, manifest.repository.directory]).toEqual([
    'MIT',
    { access: 'public' },
    'client',
  ]);
  expect(readme).toContain('import {\n  type components,\n  EncoreApiError,\n  EncoreClient,');
});

test("the package's types were generated from the document this server serves", async () => {
  // The document names the address of whoever built it (`servers`, the curl examples); the rest must be the same.
  const addressFree = (text: string) => {
    const doc = JSON.parse(text) as { servers: { url: string }[] };
    return JSON.parse(text.replaceAll(doc.servers[0].url, 'https://encore.example')) as unknown;
  };
  const served = await (await fetch(`${baseURL}/v1/openapi.json`)).text();
  const generated = readFileSync(path.join(CLIENT, 'src/generated/openapi.json'), 'utf8');
  expect(addressFree(generated)).toEqual(addressFree(served));
});

test('the quick start type-checks against the packed package and runs on the server', async () => {
  test.setTimeout(120_000);
  // A type error in the quick start against the package's .d.ts fails here, with tsc's message.
  npmRun('check');

  const { partnerId, apiKey } = await createPartner(`Typed client e2e ${RUN}`);
  const encore = quickStart.encoreClient(baseURL, apiKey);
  // The quick start's import resolved to the unpacked tarball's dist/, not to client/src.
  expect(encore).toBeInstanceOf(client.EncoreClient);
  const eventRef = `QS-${RUN}`;

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

  const held = await quickStart.holdForBuyer(encore, listingId, 'luis@example.com', `cart-${RUN}`);
  expect(held).toMatchObject({
    intention: { status: 'PENDING', items: [listingId], user: 'luis@example.com' },
    replayed: false,
  });
  // The same cart again (a restart of the partner's): the first hold, replayed; then another buyer: taken.
  expect(await quickStart.holdForBuyer(encore, listingId, 'luis@example.com', `cart-${RUN}`)).toEqual({
    intention: held?.intention,
    replayed: true,
  });
  expect(await quickStart.holdForBuyer(encore, listingId, 'eva@example.com', `cart-eva-${RUN}`)).toBeNull();
});

test("the quick start's main runs as documented (npm start), and a misspelled field does not compile", async () => {
  test.setTimeout(60_000);
  const { apiKey } = await createPartner(`Typed client main ${RUN}`);
  const printed = npmRun('start', { ENCORE_URL: baseURL, ENCORE_KEY: apiKey });
  expect(printed).toMatch(/^quick-start-\d+: 1 ticket imported\nbuy: http\S+\nsell: http\S+\n$/);

  // The tickets built in a .map() satisfy the API's type: a misspelled optional field is a compile error.
  const source = readFileSync(QUICK_START, 'utf8');
  const misspelled = source.replace('          price: 40,\n', '          prise: 40,\n');
  expect(misspelled).not.toBe(source);
  writeFileSync(path.join(partnerDir, 'misspelled.ts'), misspelled);
  writeFileSync(
    path.join(partnerDir, 'tsconfig.misspelled.json'),
    JSON.stringify({ extends: './tsconfig.json', files: ['misspelled.ts'] }),
  );
  let output = '';
  try {
    execFileSync(path.join(partnerDir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.misspelled.json'], {
      cwd: partnerDir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (err) {
    output = (err as { stdout: string }).stdout;
  }
  expect(output).toContain("'prise' does not exist in type");
  expect(output).toContain("Did you mean to write 'price'?");
});

test('every write carries an Idempotency-Key of its own; refusals are EncoreApiErrors with the envelope', async () => {
  const { apiKey } = await createPartner(`Typed client errors ${RUN}`);
  const encore = new client.EncoreClient({ baseUrl: baseURL, apiKey });
  const eventRef = `QS-ERR-${RUN}`;
  await quickStart.publishEvent(encore, eventRef);

  // No key given: the client made one; sent again with that key, Encore answers the stored answer.
  const rule = {
    externalReferenceEventId: eventRef,
    ruleType: 'PRICE_LIMITS' as const,
    rules: { minPercentOfFace: 60, maxPercentOfFace: 110 },
  };
  const first = await encore.request('POST', '/v1/events/rules', { body: [rule] });
  expect(first).toMatchObject({ status: 200, replayed: false, attempts: 1 });
  expect(first.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(first.requestId).toBeTruthy();
  const again = await encore.request('POST', '/v1/events/rules', {
    body: [rule],
    idempotencyKey: first.idempotencyKey!,
  });
  expect(again).toMatchObject({ data: first.data, replayed: true });

  // A show without its date: a 400 naming the field, thrown typed and never retried.
  const bad = await encore
    .post('/v1/events', {
      body: {
        externalReferenceId: `${eventRef}-bad`,
        title: 'No date',
        description: 'd',
        location: {},
        configuration: {},
        shows: [{ showId: '1', title: 'Night', images: [], configuration: {}, ticketOptions: [] }],
      } as never,
    })
    .catch((err: unknown) => err);
  expect(bad).toBeInstanceOf(client.EncoreApiError);
  expect(bad).toMatchObject({ name: 'EncoreApiError', status: 400, code: 'VALIDATION_FAILED', attempts: 1 });
  const refused = bad as InstanceType<PartnerClient['EncoreApiError']>;
  expect(refused.details).toContainEqual(expect.objectContaining({ path: 'shows[0].date', in: 'body' }));
  expect(refused.requestId).toMatch(/\S/);

  const stranger = new client.EncoreClient({ baseUrl: baseURL, apiKey: 'sk_live_not-a-key' });
  await expect(stranger.get('/v1/me')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
});

test('a 429 is waited out for its Retry-After, then the same call is sent again with the same key', async () => {
  // Encore's limits are far above what a test should send; a stand-in in this process answers the 429.
  const seen: { key: string | undefined; at: number }[] = [];
  const stand = http.createServer((req, res) => {
    seen.push({ key: req.headers['idempotency-key'] as string | undefined, at: Date.now() });
    req.resume();
    const limited = seen.length === 1;
    res.writeHead(limited ? 429 : 200, {
      'content-type': 'application/json',
      ...(limited ? { 'retry-after': '1' } : {}),
    });
    res.end(
      JSON.stringify(
        limited
          ? { status: 429, data: null, errors: { message: 'Rate limit exceeded', code: 'RATE_LIMITED' } }
          : { status: 200, data: { updated: 1 }, errors: null },
      ),
    );
  });
  await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
  try {
    const encore = new client.EncoreClient({
      baseUrl: `http://127.0.0.1:${(stand.address() as AddressInfo).port}`,
      apiKey: 'sk_test_x',
    });
    const answer = await encore.request('POST', '/v1/events/rules', { body: [] });
    expect(answer).toMatchObject({ data: { updated: 1 }, attempts: 2 });
    expect(seen).toHaveLength(2);
    expect(seen[1].key).toBe(seen[0].key);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(990);
  } finally {
    stand.closeAllConnections();
    await new Promise<void>((resolve) => stand.close(() => resolve()));
  }
});

test("the quick start's webhook receiver verifies what the server delivers and refuses a forged body", async () => {
  const received: VerifiedWebhook[] = [];
  const headersSeen: http.IncomingHttpHeaders[] = [];
  // The receiver is the quick start's once its signing secret is known (the endpoint needs the URL first).
  let receive: (req: http.IncomingMessage, res: http.ServerResponse) => unknown = (_req, res) =>
    res.writeHead(503).end();
  const receiver = http.createServer((req, res) => {
    headersSeen.push(req.headers);
    void receive(req, res);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const { partnerId } = await createPartner(`Typed client webhooks ${RUN}`);
    const { signingSecret } = await setUp<{ signingSecret: string }>('webhook-endpoint', { partnerId, url });
    receive = quickStart.webhookReceiver(signingSecret, async (message) => {
      received.push(message);
    });
    const { messageId } = await setUp<{ messageId: string }>('webhook-test-message', { partnerId });

    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    expect(received[0]).toMatchObject({
      id: messageId,
      body: { family: 'test', action: 'test.ping', data: { partnerId } },
    });
    expect(Math.abs(received[0].timestamp.getTime() - Date.now())).toBeLessThan(60_000);
    // The quick start's handler reads the message by its action.
    expect(quickStart.whatHappened(received[0])).toMatch(/^test message from Encore, sent at \d{4}-\d\d-\d\dT/);

    // The delivery's signature headers on another body: refused, and not handled.
    const signature = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(headersSeen[0][name])]),
    );
    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signature },
      body: JSON.stringify({ family: 'test', action: 'test.ping', data: { partnerId: 'ptr_forged' } }),
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toBe('No matching signature');
    expect(received).toHaveLength(1);
  } finally {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

test('/docs shows that quick start, as the file the tests above run', async ({ page }) => {
  await page.goto('/docs');
  await expect(page.locator('h2#quick-start')).toBeVisible();
  // Installed from this server's download (the tarball the test above installs).
  const { version } = JSON.parse(readFileSync(path.join(process.cwd(), 'client/package.json'), 'utf8')) as {
    version: string;
  };
  await expect(page.locator('pre', { hasText: 'npm install ' })).toHaveText(
    `npm install ${baseURL}/downloads/encore-partner-client-${version}.tgz`,
  );
  const link = page.getByRole('link', { name: `encore-partner-client-${version}.tgz` });
  const served = await page.request.get((await link.getAttribute('href'))!);
  expect([served.status(), served.headers()['content-disposition']]).toEqual([
    200,
    `attachment; filename="encore-partner-client-${version}.tgz"`,
  ]);
  const source = readFileSync(QUICK_START, 'utf8');
  const shown = await page.locator('pre', { hasText: 'export function encoreClient' }).innerText();
  expect(shown.trim()).toBe(source.trim());
  // The project around it: the package.json and tsconfig.json the tests above write.
  for (const file of ['package.json', 'tsconfig.json']) {
    const project = await page.getByLabel(file, { exact: true }).innerText();
    expect(project.trim()).toBe(readFileSync(path.join(QUICK_START_DIR, file), 'utf8').trim());
  }
});

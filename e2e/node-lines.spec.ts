import { execFileSync } from 'node:child_process';
import { request as playwrightRequest } from '@playwright/test';
import { expect, test } from './fixtures';
import { buyPageAddress, call, createPartner, pushCappedEurEvent, RUN, syncedTicket, syncTickets } from './helpers';
import { startInstance, stopInstances } from './instances';

/*
 * The built app on the Node.js LTS lines beside the one running the tests (package.json `engines`, `.nvmrc`):
 * an instance started on Node 22 and on Node 24 (from the `node` npm package, as `npx node@24` gives it)
 * answers a partner's calls and renders a fan's buy page.
 */

/** The binary of the newest Node.js `line` the npm registry has (fetched into npx's cache the first time). */
function nodeOf(line: string): string {
  return execFileSync('npx', ['-y', `node@${line}`, '-p', 'process.execPath'], {
    encoding: 'utf8',
    timeout: 150_000,
  }).trim();
}

test.afterAll(async () => {
  await stopInstances();
});

for (const [line, port] of [
  ['22', 3243],
  ['24', 3244],
] as const) {
  test(`on Node ${line}, the built app answers a partner and renders a fan's buy page`, async () => {
    test.setTimeout(240_000);
    const node = nodeOf(line);
    expect(execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' })).toMatch(
      new RegExp(`^${line}\\.`),
    );
    const url = `http://127.0.0.1:${port}`;
    await startInstance({ port, publicUrl: url, node });
    const api = await playwrightRequest.newContext({ baseURL: url });
    try {
      const { apiKey, partnerId } = await createPartner(`Node ${line} Partner ${RUN}`);
      const me = await call(api, apiKey, 'GET', '/v1/me');
      expect([me.status, (me.body as { data: { partnerId: string } }).data.partnerId]).toEqual([200, partnerId]);

      const ref = `NODE${line}-${RUN}`;
      await pushCappedEurEvent(api, apiKey, { ref, title: `Node ${line} Night ${RUN}`, description: '<p>LTS</p>' });
      await syncTickets(api, apiKey, [syncedTicket(ref, `NODE${line}-T1-${RUN}`, `node${line}-${RUN}@fans.test`)]);
      const page = await api.get(await buyPageAddress(api, apiKey, ref, 'https://tickets.partner.example/'));
      expect(page.status()).toBe(200);
      expect(await page.text()).toContain(`Node ${line} Night ${RUN}`);
    } finally {
      await api.dispose();
    }
  });
}

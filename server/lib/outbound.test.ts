import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakePartner } from '@/server/testing/fake-partner';
import { setEnv } from '@/server/testing/env';
import { checkPartnerUrl, checkPartnerUrlResolves, isPrivateAddress, OutboundError, partnerRequest } from './outbound';

let fake: FakePartner;
let restoreEnv: () => void;
beforeAll(async () => {
  fake = await FakePartner.start();
});
afterEach(() => {
  fake.reset();
  restoreEnv?.();
});
afterAll(() => fake.close());

/** The machine's own name, when it resolves to a loopback/private address (e.g. through /etc/hosts). */
const hostname = os.hostname();
const ownNameIsPrivate = await dns.promises
  .lookup(hostname, { all: true })
  .then((list) => list.length > 0 && list.every((a) => isPrivateAddress(a.address)))
  .catch(() => false);

async function outboundError(p: Promise<unknown>): Promise<OutboundError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

describe('partnerRequest', () => {
  it('sends method, headers and body, and answers any status with its body', async () => {
    fake.misbehaviour = { kind: 'status', status: 418, body: 'short and stout', headers: { 'x-reply': 'yes' } };
    const res = await partnerRequest(`${fake.origin}/hook`, {
      method: 'POST',
      headers: { 'x-secret': 's3cret', 'content-type': 'application/json' },
      body: '{"a":"é"}',
      allowPrivate: true,
    });
    expect(res.status).toBe(418);
    expect(res.body).toBe('short and stout');
    expect(res.headers['x-reply']).toBe('yes');
    const [req] = fake.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/hook', body: '{"a":"é"}' });
    expect(req.headers['x-secret']).toBe('s3cret');
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength('{"a":"é"}')));
    expect(req.headers['user-agent']).toMatch(/^Encore\//);
  });

  it('gives up after the timeout when the partner never answers', async () => {
    fake.misbehaviour = { kind: 'hang' };
    const started = Date.now();
    const err = await outboundError(partnerRequest(`${fake.origin}/slow`, { timeoutMs: 300, allowPrivate: true }));
    expect(err.kind).toBe('timeout');
    expect(err.message).toContain('300 ms');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(fake.requests).toHaveLength(1);
  });

  it('drops the connection of an exchange it gave up on: a body dripped slower than the timeout allows', async () => {
    let closed = false;
    // Headers at once, then a byte every 50 ms: no gap is long enough for an idle timeout, only the
    // whole exchange's limit stops it.
    const server = http.createServer((req, res) => {
      req.socket.once('close', () => (closed = true));
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 50);
      res.once('close', () => clearInterval(drip));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const err = await outboundError(
        partnerRequest(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200, allowPrivate: true }),
      );
      expect(err.kind).toBe('timeout');
      await expect.poll(() => closed, { timeout: 2000 }).toBe(true);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('stops reading a streamed body past the size cap, and accepts one exactly at the cap', async () => {
    fake.misbehaviour = { kind: 'huge', bytes: 3 * 1024 * 1024 };
    const err = await outboundError(
      partnerRequest(`${fake.origin}/big`, { maxResponseBytes: 1024 * 1024, allowPrivate: true }),
    );
    expect(err.kind).toBe('too_large');

    fake.misbehaviour = { kind: 'huge', bytes: 1000 };
    const res = await partnerRequest(`${fake.origin}/big`, { maxResponseBytes: 1000, allowPrivate: true });
    expect(res.body).toHaveLength(1000);
  });

  it('refuses a body whose declared length is over the cap', async () => {
    fake.misbehaviour = { kind: 'status', status: 200, body: 'y'.repeat(5000) };
    const err = await outboundError(partnerRequest(`${fake.origin}/x`, { maxResponseBytes: 4999, allowPrivate: true }));
    expect(err.kind).toBe('too_large');
  });

  it('never follows a redirect: the 301 comes back as is and its Location is not fetched', async () => {
    fake.misbehaviour = { kind: 'status', status: 301, body: '', headers: { location: `${fake.origin}/elsewhere` } };
    const res = await partnerRequest(`${fake.origin}/moved`, { allowPrivate: true });
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`${fake.origin}/elsewhere`);
    expect(fake.requests.map((r) => r.path)).toEqual(['/moved']);
  });

  it('reports an invalid header value as an OutboundError, not a crash', async () => {
    const err = await outboundError(
      partnerRequest(`${fake.origin}/x`, { headers: { 'x-auth': 'a\r\nInjected: 1' }, allowPrivate: true }),
    );
    expect(err.kind).toBe('invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['http://127.0.0.1:1/', 'forbidden_address'],
    ['http://10.0.0.5/', 'forbidden_address'],
    ['http://169.254.169.254/latest/meta-data/', 'forbidden_address'],
    ['http://[::1]/', 'forbidden_address'],
    ['http://[::ffff:127.0.0.1]/', 'forbidden_address'],
    ['http://[::7f00:1]/', 'forbidden_address'],
    ['http://0x7f.1/', 'forbidden_address'],
    ['http://localhost/', 'forbidden_address'],
    ['http://localhost./', 'forbidden_address'],
    ['http://api.localhost/', 'forbidden_address'],
    ['http://user:pw@partner.example/', 'invalid_url'],
    ['ftp://partner.example/', 'invalid_url'],
    ['not a url', 'invalid_url'],
  ])('refuses %s before connecting when private addresses are not allowed', async (url, kind) => {
    restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: undefined });
    const err = await outboundError(partnerRequest(url));
    expect(err.kind).toBe(kind);
  });

  it.runIf(ownNameIsPrivate)(
    `refuses at connect time a name that resolves to a private address (${hostname})`,
    async () => {
      restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: undefined });
      const url = `http://${hostname}:${fake.port}/tickets`;
      // The form check passes (it is just a name); the lookup the socket makes is what refuses it.
      expect(() => checkPartnerUrl(url)).not.toThrow();
      const err = await outboundError(partnerRequest(url));
      expect(err.kind).toBe('forbidden_address');
      expect(err.message).toContain(hostname);
      expect(fake.requests).toHaveLength(0);

      // Allowed explicitly (local development, tests), the same name reaches the fake partner.
      const res = await partnerRequest(url, { allowPrivate: true });
      expect(res.status).toBe(200);
      expect(fake.requests).toHaveLength(1);
    },
  );

  it('reaches a loopback partner when ALLOW_PRIVATE_PARTNER_URLS is set', async () => {
    restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: '1' });
    const res = await partnerRequest(`${fake.origin}/feed`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ externalReferenceId: 'evt-1' });
  });
});

describe('checkPartnerUrl', () => {
  it('requires https in production', () => {
    restoreEnv = setEnv({ NODE_ENV: 'production', ALLOW_PRIVATE_PARTNER_URLS: undefined });
    expect(() => checkPartnerUrl('http://partner.example/tickets')).toThrow(/must use https/);
    expect(checkPartnerUrl('https://partner.example/tickets').hostname).toBe('partner.example');
  });

  it('refuses http in production through partnerRequest too, without any network call', async () => {
    restoreEnv = setEnv({ NODE_ENV: 'production', ALLOW_PRIVATE_PARTNER_URLS: undefined });
    const err = await outboundError(partnerRequest('http://partner.example/tickets'));
    expect(err.kind).toBe('invalid_url');
  });

  it('accepts http outside production', () => {
    restoreEnv = setEnv({ NODE_ENV: 'development', ALLOW_PRIVATE_PARTNER_URLS: undefined });
    expect(checkPartnerUrl('http://partner.example/tickets').protocol).toBe('http:');
  });

  it('accepts public addresses and refuses private ones by number', () => {
    restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: undefined });
    expect(() => checkPartnerUrl('https://93.184.216.34/')).not.toThrow();
    expect(() => checkPartnerUrl('https://[2606:4700::1111]/')).not.toThrow();
    expect(() => checkPartnerUrl('https://192.168.1.10/')).toThrow(/private or reserved/);
    expect(() => checkPartnerUrl('https://[fd00::1]/')).toThrow(/private or reserved/);
  });
});

describe('checkPartnerUrlResolves', () => {
  it.runIf(ownNameIsPrivate)('refuses a name that resolves to a private address now', async () => {
    restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: undefined });
    await expect(checkPartnerUrlResolves(`https://${hostname}/`)).rejects.toThrow(/resolves to a private/);
  });

  it('accepts a name that does not resolve (yet) and anything when private URLs are allowed', async () => {
    restoreEnv = setEnv({ ALLOW_PRIVATE_PARTNER_URLS: undefined });
    await expect(checkPartnerUrlResolves('https://partner.invalid/')).resolves.toBeInstanceOf(URL);
    await expect(checkPartnerUrlResolves(`https://${hostname}/`, { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ADDRESS_HEADER, clientAddressFor, setClientAddress } from './client-address';

describe('clientAddressFor', () => {
  it('with no trusted proxy takes the socket peer, whatever X-Forwarded-For says', () => {
    expect(clientAddressFor('203.0.113.9', '10.0.0.1, 10.0.0.2', 0)).toBe('203.0.113.9');
    expect(clientAddressFor('::ffff:203.0.113.9', undefined, 0)).toBe('203.0.113.9');
  });

  it('with trusted proxies takes the entry they appended, never one further left', () => {
    // The client wrote "1.1.1.1"; our one proxy appended the address it was called from.
    expect(clientAddressFor('10.0.0.5', '1.1.1.1, 198.51.100.7', 1)).toBe('198.51.100.7');
    expect(clientAddressFor('10.0.0.5', ['1.1.1.1, 198.51.100.7', '10.0.0.4'], 2)).toBe('198.51.100.7');
    // Reached around the proxy: the chain is shorter than the hops; the first entry is used.
    expect(clientAddressFor('198.51.100.8', undefined, 1)).toBe('198.51.100.8');
    expect(clientAddressFor(undefined, undefined, 0)).toBeNull();
  });

  it('never lets a client choose its address when no proxy is trusted (property)', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.array(fc.string({ maxLength: 40 }), { maxLength: 6 }), (peer, forged) => {
        expect(clientAddressFor(peer, forged.join(','), 0)).toBe(peer);
      }),
    );
  });
});

describe('setClientAddress', () => {
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      setClientAddress(req, 0);
      res.end(String(req.headers[CLIENT_ADDRESS_HEADER] ?? 'none'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('writes the socket peer over a forged header and a forged X-Forwarded-For', async () => {
    const res = await fetch(url, {
      headers: { [CLIENT_ADDRESS_HEADER]: '6.6.6.6', 'x-forwarded-for': '7.7.7.7' },
    });
    expect(await res.text()).toBe('127.0.0.1');
  });
});

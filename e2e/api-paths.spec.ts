import http from 'node:http';
import { expect, test } from './fixtures';
import { partnerCreateCli, RUN } from './helpers';

/**
 * Hostile paths through the real server (Next.js routing, the proxy and the route wrapper), byte for
 * byte as a client sends them: no 5xx, and every /v1 answer is the JSON envelope.
 */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const base = new URL(test.info().project.use.baseURL ?? 'http://localhost:3210');
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method, path, headers: { ...headers, connection: 'close' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('hostile /v1 paths answer the envelope, never a 5xx', async () => {
  // A partner key straight from the CLI, against the database the server under test uses.
  const created = partnerCreateCli(`E2E paths ${RUN}`);
  const key = created.apiKey;
  const long = 'x'.repeat(10_000);
  const paths: [string, string][] = [
    ['GET', '/v1/tickets/%00/url'],
    ['PUT', '/v1/tickets/%00'],
    ['DELETE', '/v1/tickets/a%00b'],
    ['POST', '/v1/tickets/%00/eventAdmission'],
    ['POST', '/v1/events/%00/cancellation'],
    ['GET', '/v1/tickets/batches/%00'],
    ['GET', '/v1/tickets/%FF%FE/url'],
    ['GET', '/v1/tickets/%ED%A0%80/url'],
    ['GET', '/v1/tickets/%E0%A4%A/url'],
    ['GET', `/v1/tickets/${long}/url`],
    ['POST', '/v1/events/%2e%2e%2f%2e%2e%2fetc%2fpasswd/cancellation'],
    ['GET', '/v1/tickets/..%2F..%2F/url'],
    ['GET', '/v1/events/tickets/salePublicUrl?ticketId=%00&lang=en'],
    ['GET', '/v1/events/tickets/salePublicUrl?ticketId=a&ticketId=b&lang=%FF'],
    ['GET', '/v1/%00'],
    ['PATCH', '/v1/tickets/%00'],
    ['GET', '/v1/tickets/🎫/url'.replace('🎫', encodeURIComponent('🎫'))],
  ];
  for (const [method, path] of paths) {
    for (const headers of [{ authorization: key }, {}] as Record<string, string>[]) {
      const res = await raw(method, path, headers);
      const what = `${method} ${path.slice(0, 80)} ${headers.authorization ? 'with' : 'without'} key → ${res.status}`;
      expect(res.status, what).toBeLessThan(500);
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      const body = JSON.parse(res.text) as { status: number; data: unknown; errors: { message: string; code: string } };
      expect(body, what).toMatchObject({ status: res.status, data: null, errors: { code: expect.any(String) } });
    }
  }
  // A NUL inside a JSON body sent over the wire.
  const res = await raw(
    'POST',
    '/v1/sync/tickets',
    { authorization: key, 'content-type': 'application/json' },
    '[{"ticketId":"a\\u0000b"}]',
  );
  expect(res.status).toBe(400);
  expect(JSON.parse(res.text).errors.details[0]).toMatchObject({ path: '[0].ticketId', in: 'body' });
});

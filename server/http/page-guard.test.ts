import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { actionBodyRefusal, actionIdRefusal, addressRefusal, foreignOriginRefusal, refusalPage } from './page-guard';

const url = (path: string) => new URL(`http://encore.test${path}`);
const post = (headers: Record<string, string>, body?: string) =>
  new Request('http://encore.test/login', { method: 'POST', headers: { host: 'encore.test', ...headers }, body });

describe('addressRefusal', () => {
  it('refuses paths that are not UTF-8, control characters, over-long segments and NULs in the query', () => {
    for (const path of [
      '/listing/%FF',
      '/me/%C0%AF',
      '/dashboard/partners/%00/leads/export',
      `/t/${'a'.repeat(513)}`,
      '/me?q=a%00',
    ])
      expect(addressRefusal(url(path))?.status, path).toBe(400);
    for (const path of ['/', '/listing/lst_abc', '/t/%F0%9F%8E%AB', `/t/${'a'.repeat(512)}`, '/me?q=caf%C3%A9&lang=es'])
      expect(addressRefusal(url(path)), path).toBeNull();
  });

  it('lets through every path made of valid percent-encoded text without controls (property)', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (segments) => {
        expect(addressRefusal(url(`/${segments.map(encodeURIComponent).join('/')}`))).toBeNull();
      }),
    );
  });
});

describe('server actions', () => {
  it('refuses an Origin that is not this host, and one that is not a URL; no Origin is let through', () => {
    expect(foreignOriginRefusal(post({ origin: 'https://evil.example' }))?.status).toBe(403);
    expect(foreignOriginRefusal(post({ origin: 'null' }))?.status).toBe(403);
    expect(foreignOriginRefusal(post({ origin: 'not a url' }))?.status).toBe(403);
    expect(foreignOriginRefusal(post({ origin: 'http://encore.test' }))).toBeNull();
    expect(
      foreignOriginRefusal(post({ origin: 'https://shop.example', 'x-forwarded-host': 'shop.example' })),
    ).toBeNull();
    expect(foreignOriginRefusal(post({}))).toBeNull();
  });

  it('refuses an action id that is not 42 hex digits', () => {
    expect(actionIdRefusal(post({ 'next-action': 'abc' }))?.status).toBe(400);
    expect(actionIdRefusal(post({ 'next-action': 'ab'.repeat(21) }))).toBeNull();
    expect(actionIdRefusal(post({}))).toBeNull();
  });

  it('refuses a malformed multipart body and an action body that is not JSON', async () => {
    const multipart = { 'content-type': 'multipart/form-data; boundary=XYZ' };
    expect((await actionBodyRefusal(post(multipart, '--XYZ\r\nbroken')))?.status).toBe(400);
    const good = '--XYZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--XYZ--\r\n';
    expect(await actionBodyRefusal(post(multipart, good))).toBeNull();
    expect((await actionBodyRefusal(post({ 'next-action': 'ab'.repeat(21) }, '{not json')))?.status).toBe(400);
    expect(await actionBodyRefusal(post({ 'next-action': 'ab'.repeat(21) }, '["$undefined"]'))).toBeNull();
  });
});

describe('refusalPage', () => {
  it('is an Encore page in the fan language, with a way home', async () => {
    const es = refusalPage({ status: 400, reason: 'x' }, 'es', true);
    expect(es.status).toBe(400);
    expect(es.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await es.text();
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Esta dirección no funciona');
    expect(html).toContain('href="/me"');
    const staff = await refusalPage({ status: 403, reason: 'x' }, 'en', false).text();
    expect(staff).toContain('Request refused');
    expect(staff).toContain('href="/"');
  });
});

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUY_PAGE_PARAMS, sharedPageAddress } from './shared-page-address';

const ask = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  sharedPageAddress({ method, url, header: (name) => headers[name] });

describe('sharedPageAddress', () => {
  it('keeps the parameters the page reads, in one order, and the language the fan chose, else the event’s own', () => {
    expect(ask('/market/evt_1?utm_source=x&page=2&fbclid=y&show=s1&gclid=z&x=1')).toBe(
      '/market/evt_1?lang=auto&show=s1&page=2',
    );
    expect(ask('/market/evt_1?lang=ES-ar')).toBe('/market/evt_1?lang=es');
    expect(ask('/market/evt_1', { cookie: 'encore_lang=es' })).toBe('/market/evt_1?lang=es');
    expect(ask('/market/evt_1', { 'accept-language': 'ja, es;q=0.8' })).toBe('/market/evt_1?lang=es');
    expect(ask('/market/evt_1', { 'accept-language': 'de-AT, es;q=0.8' })).toBe('/market/evt_1?lang=de');
    expect(ask('/market/evt_1?lang=pt-PT')).toBe('/market/evt_1?lang=pt');
    // Nothing of the fan's names a language Encore speaks: one page, in the event's own (EVENT_LANG).
    expect(ask('/market/evt_1', { 'accept-language': 'ja' })).toBe('/market/evt_1?lang=auto');
    expect(ask('/market/evt_1?lang=auto')).toBe('/market/evt_1?lang=auto');
    expect(ask('/market/evt_1?lang=auto', { 'accept-language': 'nl' })).toBe('/market/evt_1?lang=nl');
    // A name is read as written: ?SHOW= is not the page's show.
    expect(ask('/market/evt_1?SHOW=2')).toBe('/market/evt_1?lang=auto');
  });

  it('is null for what carries a person or the router, and for any other page', () => {
    expect(ask('/market/evt_1', { cookie: 'encore_fan=abc' })).toBeNull();
    expect(ask('/market/evt_1', { cookie: 'encore_lang=es; other=1' })).toBeNull();
    expect(ask('/market/evt_1', { authorization: 'Bearer x' })).toBeNull();
    expect(ask('/market/evt_1', { rsc: '1' })).toBeNull();
    expect(ask('/market/evt_1?token=ott_1')).toBeNull();
    expect(ask('/market/evt_1?_rsc=abc')).toBeNull();
    expect(ask('/market/evt_1', {}, 'POST')).toBeNull();
    expect(ask('/market/evt_1/listing')).toBeNull();
    expect(ask('/checkout?listings=lst_1')).toBeNull();
  });

  it('names the same parameters as the reference edge’s cache key (edge/edge.js), in the same order', () => {
    const code = fs.readFileSync('edge/edge.js', 'utf8');
    const list = /^const PAGE_PARAMS = \[\n([^]*?)\n\];$/m.exec(code)?.[1] ?? '';
    const inKey = [...list.matchAll(/^ {2}\['(\w+)', \w+\],$/gm)].map((m) => m[1]);
    expect(inKey).toEqual([...BUY_PAGE_PARAMS]);
    expect(list.split('\n')).toHaveLength(BUY_PAGE_PARAMS.length);
    expect(fs.readFileSync('edge/nginx.conf', 'utf8')).toMatch(/^\s*set \$page_uri "\$raw_path\?\$page_query";$/m);
  });
});

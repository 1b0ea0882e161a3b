import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUY_PAGE_PARAMS, sharedPageAddress } from './shared-page';

const ask = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  sharedPageAddress({ method, url, header: (name) => headers[name] });

describe('sharedPageAddress', () => {
  it('keeps the parameters the page reads, in one order, and the language as the page chooses it', () => {
    expect(ask('/market/evt_1?utm_source=x&page=2&fbclid=y&show=s1&gclid=z&x=1')).toBe(
      '/market/evt_1?lang=en&show=s1&page=2',
    );
    expect(ask('/market/evt_1?lang=ES-ar')).toBe('/market/evt_1?lang=es');
    expect(ask('/market/evt_1', { cookie: 'encore_lang=es' })).toBe('/market/evt_1?lang=es');
    expect(ask('/market/evt_1', { 'accept-language': 'fr, es;q=0.8' })).toBe('/market/evt_1?lang=es');
    // A name is read as written: ?SHOW= is not the page's show.
    expect(ask('/market/evt_1?SHOW=2')).toBe('/market/evt_1?lang=en');
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

  it('names the same parameters as the reference edge’s cache key (edge/nginx.conf)', () => {
    const conf = fs.readFileSync('edge/nginx.conf', 'utf8');
    const inKey = [...conf.matchAll(/^\s*map \$args \$q_(\w+) /gm)].map((m) => m[1]);
    expect(inKey).toEqual([...BUY_PAGE_PARAMS]);
    const proxied = /set \$page_uri "\$raw_path\?lang=\$fan_lang((?:\$q_\w+)+)";/.exec(conf)?.[1];
    expect(proxied).toBe(BUY_PAGE_PARAMS.map((p) => `$q_${p}`).join(''));
  });
});

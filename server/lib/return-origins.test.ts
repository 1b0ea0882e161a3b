import { describe, expect, it } from 'vitest';
import { safeReturnTo } from '@/components/market/return-to';
import { frameAncestors, parseReturnOrigin, returnToAllowed } from './return-origins';

describe('return origins', () => {
  it('accepts https origins, normalised, and refuses paths, credentials, other schemes and odd hosts', () => {
    expect(parseReturnOrigin(' HTTPS://Tickets.Partner.Example:443/ ', false)).toEqual({
      origin: 'https://tickets.partner.example',
    });
    expect(parseReturnOrigin('https://tickets.example:8443', false)).toEqual({
      origin: 'https://tickets.example:8443',
    });
    expect(parseReturnOrigin('https://bücher.example', false)).toEqual({ origin: 'https://xn--bcher-kva.example' });
    for (const bad of [
      'tickets.example',
      'https://tickets.example/back',
      'https://tickets.example/?',
      'https://tickets.example#x',
      'https://user:pw@tickets.example',
      'javascript:alert(1)',
      'ftp://tickets.example',
      'https://a;b.example',
      "https://a'b.example",
      'https://a,b.example',
      'http://tickets.example',
    ]) {
      expect(parseReturnOrigin(bad, true), bad).toHaveProperty('error');
    }
  });

  it('allows http only for a loopback host, and only when private partner URLs are allowed', () => {
    for (const local of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
      expect(parseReturnOrigin(local, true), local).toEqual({ origin: local });
      expect(parseReturnOrigin(local, false), local).toEqual({ error: 'must use https://' });
    }
    expect(parseReturnOrigin('http://10.0.0.1', true)).toEqual({ error: 'must use https://' });
  });

  it('allows any http(s) returnTo without origins, and with origins only those (compared as parsed origins)', () => {
    expect(returnToAllowed('javascript:alert(1)', [])).toBe(false);
    const origins = ['https://tickets.a.example'];
    expect(returnToAllowed('https://TICKETS.a.example:443/my?x=1', origins)).toBe(true);
    for (const other of [
      'https://evil.example/',
      'https://tickets.a.example.evil.example/',
      'https://evil.example/?https://tickets.a.example',
      'https://tickets.a.example@evil.example/',
      'http://tickets.a.example/',
      'https://tickets.a.example:8443/',
      '//tickets.a.example/',
      'not a url',
    ]) {
      expect(returnToAllowed(other, origins), other).toBe(false);
    }
  });

  it('safeReturnTo gives the back link only on an allowed origin, else on the partner’s own site', () => {
    const none = { returnOrigins: [] as string[], supportUrl: null };
    const allowed = { returnOrigins: ['https://tickets.a.example'], supportUrl: null };
    // No origins and no site of its own: a crafted link to anywhere shows no back link.
    expect(safeReturnTo('https://evil.example/back', none)).toBeNull();
    expect(safeReturnTo('https://evil.example/back', allowed)).toBeNull();
    expect(safeReturnTo(['https://tickets.a.example/back', 'x'], allowed)).toBe('https://tickets.a.example/back');
    expect(safeReturnTo('javascript:alert(1)', allowed)).toBeNull();
    expect(safeReturnTo(undefined, allowed)).toBeNull();
    // No origins, but its support page names its site: a link there is kept, any other becomes its home page.
    const site = { returnOrigins: [] as string[], supportUrl: 'https://help.a.example/contact' };
    expect(safeReturnTo('https://help.a.example/events/1', site)).toBe('https://help.a.example/events/1');
    expect(safeReturnTo('https://evil.example/phish', site)).toBe('https://help.a.example/');
    expect(safeReturnTo('javascript:alert(1)', site)).toBe('https://help.a.example/');
    expect(safeReturnTo(undefined, site)).toBeNull();
    // Set origins win over the site.
    expect(safeReturnTo('https://help.a.example/x', { ...allowed, supportUrl: site.supportUrl })).toBeNull();
    expect(returnToAllowed('https://anywhere.example/x', [])).toBe(false);
  });

  it('frame-ancestors lists the origins, or none', () => {
    expect(frameAncestors([])).toBe("'none'");
    expect(frameAncestors(['https://a.example', 'https://b.example'])).toBe('https://a.example https://b.example');
  });
});

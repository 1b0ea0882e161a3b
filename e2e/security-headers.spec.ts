import { expect, test } from './fixtures';

/** The headers every answer carries, on pages, the partner API, a route handler and a static file. */
test('every answer carries the security headers; pages a fresh CSP nonce each', async ({ request, page }) => {
  const common = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
  };
  const home = await request.get('/');
  expect(home.headers()).toMatchObject(common);
  const csp = home.headers()['content-security-policy'];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(home.headers()['permissions-policy']).toContain('camera=()');
  // A new nonce per answer, and the page's scripts carry it.
  const again = await request.get('/');
  expect(again.headers()['content-security-policy']).not.toBe(csp);
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  expect(await home.text()).toContain(`nonce="${nonce}"`);
  // No HSTS over plain http; with https said by the proxy in front, HSTS.
  expect(home.headers()['strict-transport-security']).toBeUndefined();
  const overHttps = await request.get('/', { headers: { 'x-forwarded-proto': 'https' } });
  expect(overHttps.headers()['strict-transport-security']).toMatch(/^max-age=31536000/);

  for (const path of ['/v1/me', '/healthz', '/icon.svg', '/dashboard', '/no-such-page']) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.headers(), path).toMatchObject(common);
    expect(res.headers()['content-security-policy'], path).toBeTruthy();
  }
  expect((await request.get('/v1/me')).headers()['content-security-policy']).toBe(
    "default-src 'none'; frame-ancestors 'none'",
  );

  // The pages run under the policy (the fixture fails the test on any violation in the console).
  await page.goto('/');
  await page.goto('/signin');
  await expect(page.getByLabel('E-mail')).toBeVisible();
});

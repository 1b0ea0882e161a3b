import { expect, test } from './fixtures';
import { axe, createPartner, RUN, shot, shotsEnEs } from './helpers';

/**
 * A partner asks the real API for a one-time token and appends it to an Encore fan URL: the fan lands
 * signed in for that partner on the same page without the token; the same link again shows the
 * friendly expired-link page naming the partner.
 */
test('a one-time token signs the fan in once', async ({ page, request }) => {
  const name = `E2E Fans ${RUN}`;
  const created = await createPartner(name);

  const bad = await request.get('/v1/auth/oneTimeToken?user=ana%40example.com&method=sms', {
    headers: { authorization: created.apiKey },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).errors.details[0]).toMatchObject({ path: 'method', in: 'query' });

  const res = await request.get(`/v1/auth/oneTimeToken?user=${encodeURIComponent(`Ana.${RUN}@Example.com`)}`, {
    headers: { authorization: created.apiKey },
  });
  expect(res.status()).toBe(200);
  const token = (await res.json()).data as string;
  expect(token).toMatch(/^ott_[A-Za-z0-9_-]{65}$/);

  const link = `/me?token=${token}`;
  await page.goto(link);
  // A signed-in fan's account page is their partner's resale entry page.
  await expect(page).toHaveURL(new RegExp(`/resale/${created.partnerId}$`));
  await expect(page.getByTestId('fan-email')).toHaveText(`Signed in as ana.${RUN}@example.com`);
  await expect(page.getByTestId('partner-brand')).toContainText(name);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'encore_fan');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  await shot(page, 'fan-signed-in');

  // The same link again: already used.
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/expired/);
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
  await expect(page.getByText(`go back to ${name}'s website or app`)).toBeVisible();
  await shot(page, 'fan-link-expired');

  // The session opened by the first visit is still there; signing out ends it.
  await page.goto('/me');
  await expect(page.getByTestId('fan-email')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto('/me');
  await expect(page.getByText('You are not signed in.')).toBeVisible();
});

test('a client trying bad sign-in links lands on a branded page in its language; a good link still opens', async ({
  page,
  request,
}) => {
  const name = `E2E Flood ${RUN}`;
  const created = await createPartner(name);
  // The e2e server trusts one proxy hop, so X-Forwarded-For names the client here
  // (docs/configuration.md, TRUSTED_PROXY_HOPS); a client-written x-encore-client-address is dropped.
  const client = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
  const headers = (address: string) => ({
    'x-forwarded-for': address,
    'accept-language': 'es',
    'x-encore-client-address': '10.9.9.9',
  });
  const tryLink = (token: string, address: string) =>
    request.get(`/auth/redeem?token=${token}&next=%2Fme`, { headers: headers(address), maxRedirects: 0 });
  for (let i = 0; i < 30; i += 1) {
    const res = await tryLink(`ott_guess_${RUN}_${i}`, client);
    expect(res.status()).toBe(303);
    expect(res.headers()['location']).toMatch(/^\/auth\/expired\?/);
  }
  const refused = await tryLink(`ott_guess_${RUN}_last`, client);
  expect(refused.status()).toBe(303);
  expect(refused.headers()['location']).toMatch(/^\/auth\/too-many\?minutes=1[45]&next=%2Fme$/);
  expect(refused.headers()['cache-control']).toMatch(/\bno-store\b/);
  expect(refused.headers()['referrer-policy']).toBe('no-referrer');
  expect((await tryLink(`ott_guess_${RUN}_other`, '203.0.113.77')).headers()['location']).toMatch(/^\/auth\/expired\?/);

  // What the fan sees: the page in their language (Spanish, chosen on an earlier page and remembered), in the
  // brand of the page the link was going to, with the wait.
  await page.setExtraHTTPHeaders(headers(client));
  await page.goto(`/resale/${created.partnerId}?lang=es`);
  await page.goto(`/resale/${created.partnerId}?token=ott_guess_${RUN}_page`);
  await expect(page).toHaveURL(/\/auth\/too-many\?minutes=1[45]&/);
  await expect(page.getByRole('heading', { name: 'Demasiados enlaces de acceso desde esta conexión' })).toBeVisible();
  await expect(page.getByTestId('too-many-wait')).toHaveText(/dentro de 1[45] minutos\.$/);
  await expect(page.getByTestId('partner-brand')).toContainText(name);
  await axe(page, 'too many links');
  await shotsEnEs(page, 'fan-too-many-links');

  // A fan's own link from the same address still opens.
  const res = await request.get(`/v1/auth/oneTimeToken?user=${encodeURIComponent(`flood.${RUN}@example.com`)}`, {
    headers: { authorization: created.apiKey },
  });
  const token = (await res.json()).data as string;
  await page.goto(`/me?token=${token}`);
  await expect(page).toHaveURL(new RegExp(`/resale/${created.partnerId}$`));
  await expect(page.getByTestId('fan-email')).toContainText(`flood.${RUN}@example.com`);
});

import { createHmac } from 'node:crypto';
import { expect, test } from './fixtures';
import {
  axe,
  call,
  createPartner,
  hydrated,
  pointWebhooks,
  pushUsdEvent,
  Receiver,
  RUN,
  shot,
  shotsEnEs,
  signIn,
  svgIconsOnly,
  eventShow,
  withParams,
} from './helpers';

/*
 * Ticket protection. The secure view: before unlock, a countdown and no code anywhere the
 * browser receives; after unlock, the QR and a moving code (RFC 6238) a screenshot cannot copy; once
 * admitted, "used" and no code. Then a ticket changing hands: the old link says "transferred", the new
 * owner's says "being reissued" until the partner's PUT brings the new code; staff follow the reissue on
 * the partner page and switch protection off for the show, and the partner's server receives
 * `ticketShield.updated` with its ids.
 */

const REF = `PRT-${RUN}`;
const SECRET = `SECRET-CODE-${RUN}`;
const OPEN_CODE = `OPEN-CODE-${RUN}`;

/** The moving code as the server defines it (server/modules/protection/unlock.ts), at `ms`. */
function expectedCode(token: string, ms: number): string {
  const key = createHmac('sha256', token).update('encore moving code v1').digest();
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(Math.floor(ms / 1000 / 10)));
  const mac = createHmac('sha1', key).update(msg).digest();
  const o = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[o] & 0x7f) << 24) | (mac[o + 1] << 16) | (mac[o + 2] << 8) | mac[o + 3];
  const code = String(bin % 1_000_000).padStart(6, '0');
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}

test('the secure view keeps the code locked until unlock, then shows the QR and a moving code', async ({
  page,
  request,
}) => {
  // A long flow (several pages, a webhook delivered by the worker): more than the default minute under load.
  test.setTimeout(120_000);
  const { apiKey } = await createPartner(`Protection ${RUN}`);
  const inOneHour = new Date(Date.now() + 3600_000).toISOString();
  await pushUsdEvent(
    request,
    apiKey,
    REF,
    `Protected night ${RUN}`,
    [eventShow('later', '2027-09-10T21:00:00-05:00', 'Show later'), eventShow('soon', inOneHour, 'Show soon')],
    { timeZone: 'America/Lima' },
  );
  const ticket = (ticketId: string, showId: string, access: Record<string, string>) => ({
    externalReferenceEventId: REF,
    showId,
    ticketId,
    buyer: { email: `fan-${RUN}@fans.test` },
    nominalTicket: { fullName: 'Ada Lovelace' },
    ticketAccess: access,
    ticketOptionId: 'GA',
  });
  const synced = await call(request, apiKey, 'POST', '/v1/sync/tickets', [
    ticket(`LOCK-${RUN}`, 'later', { type: 'OTHER', locator: SECRET }),
    ticket(`OPEN-${RUN}`, 'soon', { type: 'OTHER', locator: OPEN_CODE }),
  ]);
  expect(synced.body.data.failed).toBe(0);
  const urlOf = async (id: string) => (await call(request, apiKey, 'GET', `/v1/tickets/${id}/url`)).body.data as string;
  const locked = new URL(await urlOf(`LOCK-${RUN}`));
  const open = new URL(await urlOf(`OPEN-${RUN}`));
  // Partner API answers never carry the code.
  expect(JSON.stringify(await call(request, apiKey, 'GET', `/v1/tickets/LOCK-${RUN}/url`))).not.toContain(SECRET);

  await test.step('before unlock: a countdown, and the code in nothing the browser receives', async () => {
    const bodies: string[] = [];
    page.on('response', async (res) => {
      try {
        bodies.push(await res.text());
      } catch {
        // redirects and aborted requests have no body
      }
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${locked.pathname}?lang=es`);
    await expect(page.getByTestId('ticket-locked')).toBeVisible();
    await svgIconsOnly(page.getByTestId('ticket-locked'));
    await expect(page.getByTestId('countdown')).toContainText('Se desbloquea en');
    await expect(page.getByTestId('ticket-holder')).toHaveText('Ada Lovelace');
    await expect(page.getByTestId('ticket-qr')).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    expect(await page.content()).not.toContain(SECRET);
    expect(bodies.length).toBeGreaterThan(3);
    expect(bodies.filter((b) => b.includes(SECRET))).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await axe(page, 'ticket-locked');
    await shot(page, 'ticket-locked-es');
    await shotsEnEs(page, 'icons-ticket-locked');
  });

  await test.step('after unlock: the QR and a moving code that changes every 10 seconds', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${open.pathname}?lang=en`);
    await expect(page.getByTestId('ticket-code')).toBeVisible();
    await expect(page.getByTestId('ticket-qr').locator('svg')).toBeVisible();
    const token = open.pathname.split('/').pop()!;
    const shown = page.getByTestId('moving-code').locator('.ticket-live-code');
    await expect(shown).toHaveText(/^\d{3} \d{3}$/);
    const now = Date.now();
    expect([expectedCode(token, now), expectedCode(token, now - 10_000), expectedCode(token, now + 10_000)]).toContain(
      await shown.textContent(),
    );
    await axe(page, 'ticket-open');
    await shot(page, 'ticket-open');
  });

  await test.step('admitted at the door: "used", and no code', async () => {
    expect((await call(request, apiKey, 'POST', `/v1/tickets/OPEN-${RUN}/eventAdmission`)).status).toBe(200);
    await page.reload();
    await expect(page.getByTestId('ticket-status')).toHaveText('Used');
    await expect(page.getByTestId('ticket-used')).toBeVisible();
    await expect(page.getByTestId('ticket-qr')).toHaveCount(0);
    expect(await page.content()).not.toContain(OPEN_CODE);
  });
});

/** The page has no sideways scroll at its current width. */
async function fits(page: import('@playwright/test').Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test('a transferred ticket: the old link says so, the new one waits for the reissue; staff switch protection and the partner hears it @database-flow', async ({
  page,
  browser,
  request,
}) => {
  // A long flow (several pages, a webhook delivered by the worker): more than the default minute under load.
  test.setTimeout(180_000);
  const ref = `PRT2-${RUN}`;
  const title = `Reissue night ${RUN}`;
  const seller = `seller-${RUN}@fans.test`;
  const friend = `friend-${RUN}@fans.test`;
  const oldCode = `OLD-CODE-${RUN}`;
  const newCode = `NEW-CODE-${RUN}`;
  const ticketId = `RE-${RUN}`;
  const receiver = await new Receiver().start();
  const staff = await browser.newContext();
  const admin = await staff.newPage();
  try {
    const { partnerId, apiKey } = await createPartner(`Reissue ${RUN}`);
    await pointWebhooks(browser, partnerId, receiver.url);
    const inOneHour = new Date(Date.now() + 3600_000).toISOString();
    await pushUsdEvent(request, apiKey, ref, title, [eventShow('soon', inOneHour, 'Show soon')]);
    const rules = await call(request, apiKey, 'POST', '/v1/events/rules', [
      { externalReferenceEventId: ref, ruleType: 'P2P_TRANSFER', rules: { allowed: true } },
    ]);
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    const synced = await call(request, apiKey, 'POST', '/v1/sync/tickets', [
      {
        externalReferenceEventId: ref,
        showId: 'soon',
        ticketId,
        buyer: { email: seller },
        ticketAccess: { type: 'OTHER', locator: oldCode },
        ticketOptionId: 'GA',
      },
    ]);
    expect(synced.body.data.failed).toBe(0);
    const urlOf = async () => new URL((await call(request, apiKey, 'GET', `/v1/tickets/${ticketId}/url`)).body.data);

    await test.step('staff set the partner to reissue tickets after a change of hands', async () => {
      await admin.goto(`/dashboard/partners/${partnerId}#protection`);
      await signIn(admin);
      const section = admin.getByTestId('partner-protection');
      await expect(section.getByText('This partner does not reissue')).toBeVisible();
      await section.getByLabel('Reissue after resale').selectOption('yes');
      await section.getByRole('button', { name: 'Save protection' }).click();
      await expect(section.getByText('Saved.')).toBeVisible();
    });

    const before = await urlOf();
    await test.step('the owner sends the ticket to a friend from the secure view', async () => {
      const ott = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(seller)}`)).body
        .data as string;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${before.pathname}?lang=en`);
      await expect(page.getByTestId('ticket-code')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Add to calendar' })).toHaveAttribute('href', /calendar\.ics$/);
      await page.goto(`${before.pathname}/transfer?token=${ott}`);
      await expect(page).not.toHaveURL(/token=/);

      // Sending it to oneself is refused, in the fan's language (the refusal's reason, not the API's English).
      await page.goto(`${before.pathname}/transfer?lang=es`);
      await hydrated(page, '[data-testid="transfer-form"] button');
      await page.getByLabel('Su correo electrónico').fill(seller);
      await page.getByRole('button', { name: 'Continuar' }).click();
      await hydrated(page, '[data-testid="transfer-confirm-form"] button');
      await page.getByRole('button', { name: 'Sí, transferir' }).click();
      await expect(page.getByTestId('action-error')).toContainText('Esa es tu propia dirección de correo');

      await page.goto(`${before.pathname}/transfer?lang=en`);
      await hydrated(page, '[data-testid="transfer-form"] button');
      await page.getByLabel('Their e-mail').fill(friend);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByTestId('ticket-transfer')).toContainText(friend);
      await hydrated(page, '[data-testid="transfer-confirm-form"] button');
      await page.getByRole('button', { name: 'Yes, transfer' }).click();
      await expect(page).toHaveURL(new RegExp(`${before.pathname}$`));
    });

    await test.step('the old link says "transferred" and shows no code', async () => {
      await expect(page.getByTestId('ticket-status')).toHaveText('Transferred');
      await expect(page.getByTestId('ticket-ended')).toContainText('transferred to someone else');
      await expect(page.getByTestId('ticket-qr')).toHaveCount(0);
      await expect(page.getByTestId('moving-code')).toHaveCount(0);
      expect(await page.content()).not.toContain(oldCode);
      await fits(page);
      await axe(page, 'ticket-transferred');
      await shot(page, 'ticket-transferred-en');
    });

    const after = await urlOf();
    expect(after.pathname).not.toBe(before.pathname);
    await test.step('the new owner’s link says "being reissued" (in Spanish) and shows no code', async () => {
      const fan = await (await browser.newContext()).newPage();
      await fan.setViewportSize({ width: 390, height: 844 });
      const bodies: string[] = [];
      fan.on('response', async (res) => {
        try {
          bodies.push(await res.text());
        } catch {
          // redirects have no body
        }
      });
      await fan.goto(`${after.pathname}?lang=es`);
      await expect(fan.getByTestId('ticket-status')).toHaveText('Reemitiéndose');
      await expect(fan.getByTestId('ticket-reissuing')).toContainText('código nuevo');
      await svgIconsOnly(fan.getByTestId('ticket-reissuing'));
      await expect(fan.getByTestId('ticket-qr')).toHaveCount(0);
      await fan.waitForLoadState('networkidle');
      expect(bodies.filter((b) => b.includes(oldCode))).toEqual([]);
      await fits(fan);
      await axe(fan, 'ticket-reissuing');
      await shot(fan, 'ticket-reissuing-es');
      await shotsEnEs(fan, 'icons-ticket-reissuing');

      await admin.reload();
      await expect(admin.getByTestId('reissue-awaiting')).toHaveText('1');
      await expect(admin.getByTestId('reissue-list')).toContainText(ticketId);

      // The partner's PUT with the new ticketAccess is the reissue: the new code appears.
      const put = await call(request, apiKey, 'PUT', `/v1/tickets/${ticketId}`, {
        ticketAccess: { type: 'OTHER', locator: newCode },
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      await fan.goto(`${after.pathname}?lang=en`);
      await expect(fan.getByTestId('ticket-status')).toHaveText('Valid');
      await expect(fan.getByTestId('ticket-qr').locator('svg')).toBeVisible();
      await expect(fan.getByTestId('moving-code')).toBeVisible();
      await fits(fan);
      await axe(fan, 'ticket-reissued');
      await fan.context().close();

      await admin.reload();
      await expect(admin.getByTestId('reissue-awaiting')).toHaveText('0');
    });

    await test.step('staff switch protection off for the show; the partner receives ticketShield.updated', async () => {
      await admin.goto(`/dashboard/partners/${partnerId}/events`);
      await admin.getByRole('link', { name: title }).click();
      await expect(admin.getByTestId('protection-state-soon')).toHaveText('Protected');
      const form = admin.getByRole('form', { name: 'Protection of show soon' });
      await form.getByLabel('Protection').selectOption('off');
      await form.getByRole('button', { name: 'Save' }).click();
      const dialog = admin.getByRole('alertdialog');
      await expect(dialog).toContainText('Turn protection off for show soon?');
      await dialog.getByRole('button', { name: 'Turn off' }).click();
      await expect(form.getByText('Saved. The partner is told for 1 show.')).toBeVisible();
      await expect(admin.getByTestId('protection-state-soon')).toHaveText('Not protected');
      const shield = () => receiver.bodies.find((b) => b.action === 'ticketShield.updated');
      await expect.poll(() => !!shield(), { timeout: 75_000, message: 'ticketShield.updated delivered' }).toBe(true);
      expect(shield()).toEqual({
        family: 'ticketShield',
        action: 'ticketShield.updated',
        data: { status: false, eventId: ref, showId: 'soon' },
      });
    });
  } finally {
    await staff.close();
    await receiver.stop();
  }
});

test('once the secure view showed the code, the sell page says why the ticket cannot be sold (reissue off), in English and Spanish', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const ref = `PRT3-${RUN}`;
  const seller = `revealed-${RUN}@fans.test`;
  const ticketId = `RV-${RUN}`;
  const name = `Revealed ${RUN}`;
  const { apiKey } = await createPartner(name);
  const inOneHour = new Date(Date.now() + 3600_000).toISOString();
  await pushUsdEvent(request, apiKey, ref, `Revealed night ${RUN}`, [eventShow('soon', inOneHour, 'Show soon')]);
  const synced = await call(request, apiKey, 'POST', '/v1/sync/tickets', [
    {
      externalReferenceEventId: ref,
      showId: 'soon',
      ticketId,
      buyer: { email: seller },
      ticketAccess: { type: 'OTHER', locator: `RV-CODE-${RUN}` },
      ticketOptionId: 'GA',
    },
  ]);
  expect(synced.body.data.failed).toBe(0);
  const sellUrl = (
    await call(request, apiKey, 'GET', `/v1/marketplace/sellingflow/url/entrypoint?ticketId=${ticketId}`)
  ).body.data as string;
  const token = (await call(request, apiKey, 'GET', `/v1/auth/oneTimeToken?user=${encodeURIComponent(seller)}`)).body
    .data as string;
  await page.setViewportSize({ width: 390, height: 844 });

  await test.step('before the code is shown, the ticket can be sold', async () => {
    await page.goto(withParams(sellUrl, { token }));
    await expect(page).not.toHaveURL(/token=/);
    await expect(page.getByTestId('sell-status')).toHaveText('Can be sold');
  });
  const sellPath = new URL(page.url()).pathname;

  await test.step('the secure view shows the holder the code', async () => {
    const url = new URL((await call(request, apiKey, 'GET', `/v1/tickets/${ticketId}/url`)).body.data as string);
    await page.goto(`${url.pathname}?lang=en`);
    await expect(page.getByTestId('ticket-code')).toBeVisible();
  });

  await test.step('the sell page now gives the reason beside the ticket, in the fan’s language', async () => {
    await page.goto(`${sellPath}?lang=en`);
    await expect(page.getByTestId('sell-status')).toHaveText("Can't be sold");
    await expect(page.getByTestId('sell-reasons')).toHaveText(
      `Its code was already shown to you, and ${name} does not issue a new code after a resale: the buyer and you would hold the same code.`,
    );
    await fits(page);
    await axe(page, 'sell page, code revealed');
    await shot(page, 'sell-code-revealed-en');
    await page.goto(`${sellPath}?lang=es`);
    await expect(page.getByTestId('sell-reasons')).toHaveText(
      `Ya se te mostró su código y ${name} no emite un código nuevo tras una reventa: el comprador y tú tendríais el mismo código.`,
    );
    await shot(page, 'sell-code-revealed-es');
  });
});

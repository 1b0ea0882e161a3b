import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { axe, call, cli, pushUsdEvent, RUN, shot, usdShow } from './helpers';

/*
 * Ticket protection on the secure view (issue 13, first part): before unlock, a countdown and no code
 * anywhere the browser receives; after unlock, the QR and a moving code (RFC 6238) a screenshot cannot
 * copy; once admitted, "used" and no code.
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
  const { apiKey } = cli('server/cli/partner-create.ts', ['--name', `Protection ${RUN}`]);
  const inOneHour = new Date(Date.now() + 3600_000).toISOString();
  await pushUsdEvent(
    request,
    apiKey,
    REF,
    `Protected night ${RUN}`,
    [usdShow('later', '2027-09-10T21:00:00-05:00', 'Show later'), usdShow('soon', inOneHour, 'Show soon')],
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

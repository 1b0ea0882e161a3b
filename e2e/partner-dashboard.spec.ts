import { expect, type Page, test } from './fixtures';
import { createPartner, hydrated, RUN, screenshot, setUp, signIn } from './helpers';
import { acceptPartnerInvitation, invitePartnerUserByApi, signInPartnerUser, statusOf } from './partner-helpers';

/*
 * A partner's own users in the dashboard: Encore's admin invites the partner's owner, who accepts, signs in
 * and sees their partner alone (every other partner, and every page of Encore's staff, is not found); the
 * owner creates an API key (its secret shown once), rotates the publishable key, invites a viewer on the Team
 * page, and the viewer sees no control that writes. Screenshots at a phone's and a laptop's width.
 */

const owner = `partner-owner-${RUN}@partner.test`;
const viewer = `partner-viewer-${RUN}@partner.test`;

/** The page at 390 and 1366 px, once `ready` shows at each: test-results/partner-<name>-<width>.png. */
async function shots(page: Page, name: string, ready: string) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByTestId(ready)).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `test-results/partner-${name}-${width}.png`, { fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a partner's owner and viewer see their partner alone, with the controls of their role", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const mine = await createPartner(`Partner dash ${RUN}`);
  const other = await createPartner(`Other partner ${RUN}`);
  await setUp('webhook-endpoint', { partnerId: mine.partnerId, url: 'https://hooks.partner.example/encore' });
  const name = `Partner dash ${RUN}`;

  let ownerPage!: Page;
  await test.step("Encore's admin invites the owner; the owner accepts and then signs in on the sign-in page", async () => {
    await page.goto('/dashboard');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    const link = await invitePartnerUserByApi(page, mine.partnerId, owner, 'owner');
    const joined = await acceptPartnerInvitation(browser, link, name);
    await joined.context().close();
    ownerPage = await signInPartnerUser(browser, owner, mine.partnerId);
    await expect(ownerPage.getByTestId('signed-in-role')).toHaveText('Owner');
    await expect(ownerPage.getByTestId('partner-brand')).toContainText(name);
  });

  await test.step('the owner sees only its partner: every other partner and every staff page is not found', async () => {
    const nav = ownerPage.getByRole('navigation', { name: 'Dashboard' });
    await expect(nav.getByRole('link')).toHaveText([
      'Overview',
      'Events',
      'Market',
      'Fees and payouts',
      'Webhook log',
      'Embed',
      'Resale rules',
      'Banners',
      'Team',
    ]);
    // Encore's sections of the partner's page are not there.
    const sections = ownerPage.getByTestId('partner-nav');
    await expect(sections.getByRole('link', { name: 'Channels' })).toHaveCount(0);
    await expect(sections.getByRole('link', { name: 'Audit' })).toHaveCount(0);
    expect(await statusOf(ownerPage, `/dashboard/partners/${other.partnerId}`)).toBe(404);
    await expect(ownerPage.getByRole('link', { name: 'Back to your dashboard' })).toBeVisible();
    for (const path of [
      `/dashboard/partners/${other.testPartnerId}/events`,
      `/dashboard/partners/${other.partnerId}/statement`,
      `/dashboard/partners/${mine.partnerId}/channels`,
      '/dashboard/partners',
      '/dashboard/partners/new',
      '/dashboard/staff',
      '/dashboard/audit',
      '/dashboard/jobs',
      '/dashboard/mailbox',
      '/dashboard/money',
      '/dashboard/search?q=a',
    ]) {
      expect(await statusOf(ownerPage, path), path).toBe(404);
    }
    // The CSV exports: their own partner's, not another's.
    const period = 'from=2026-01-05&to=2026-01-11';
    const own = await ownerPage.request.get(`/dashboard/partners/${mine.partnerId}/exports/purchases?${period}`);
    expect(own.status()).toBe(200);
    expect(own.headers()['content-type']).toContain('text/csv');
    const elsewhere = await ownerPage.request.get(`/dashboard/partners/${other.partnerId}/exports/purchases?${period}`);
    expect(elsewhere.status()).toBe(404);
    expect((await ownerPage.request.get(`/dashboard/partners/${other.partnerId}/leads/export`)).status()).toBe(404);
    // A staff-only call from the page: FORBIDDEN; another partner's id: not found.
    const codes = await ownerPage.evaluate(async (otherId) => {
      const get = async (path: string) => (await fetch(path)).status;
      const input = (json: unknown) => encodeURIComponent(JSON.stringify({ json }));
      return [
        await get(`/api/trpc/staff.list`),
        await get(`/api/trpc/partners.get?input=${input({ partnerId: otherId })}`),
      ];
    }, other.partnerId);
    expect(codes).toEqual([403, 404]);
  });

  await test.step('the owner creates an API key (its secret shown once) and rotates the publishable key', async () => {
    await ownerPage.goto(`/dashboard/partners/${mine.partnerId}`);
    const keys = ownerPage.getByTestId('keys-partner');
    await hydrated(ownerPage, '[data-testid="keys-partner"] button');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: /^Create / });
    await dialog.getByLabel('Label').fill('owner key');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = keys.getByTestId('secret-value');
    await expect(secret).toHaveText(/^sk_live_/);
    await keys.getByRole('button', { name: 'I have copied it' }).click();
    await expect(keys.getByTestId('secret-value')).toHaveCount(0);
    await expect(keys).toContainText('owner key');
    await ownerPage.reload();
    await expect(ownerPage.getByTestId('keys-partner')).toContainText('owner key');
    await expect(ownerPage.getByTestId('secret-value')).toHaveCount(0);

    const publishable = ownerPage.getByTestId('publishable-key-live');
    await hydrated(ownerPage, '[data-testid="publishable-key-live"] button');
    const value = publishable.getByTestId('publishable-key-value');
    const before = await value.textContent();
    await publishable.getByRole('button', { name: /^Rotate / }).click();
    await ownerPage.getByRole('alertdialog').getByRole('button', { name: 'Rotate key' }).click();
    await expect(value).toHaveText(/^pk_live_/);
    await expect(value).not.toHaveText(before ?? '');
    await shots(ownerPage, 'owner-overview', 'keys-partner');
  });

  let viewerPage!: Page;
  await test.step('the owner invites a viewer on the Team page; the viewer joins', async () => {
    await ownerPage.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Team' }).click();
    await expect(ownerPage.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
    const form = ownerPage.getByRole('form', { name: 'Invite a user' });
    await hydrated(ownerPage, 'form[aria-label="Invite a user"]');
    await form.getByLabel('E-mail').fill(viewer);
    await form.getByRole('button', { name: 'Invite' }).click();
    const invitations = ownerPage.getByTestId('partner-invitations');
    const link = (await invitations.getByTestId('secret-value').textContent()) ?? '';
    expect(link).toMatch(/\/invite\/[A-Za-z0-9]{32}$/);
    await expect(invitations.locator(`tr[data-invitation-email="${viewer}"]`)).toContainText('Viewer');
    viewerPage = await acceptPartnerInvitation(browser, link, name);
    await ownerPage.reload();
    const users = ownerPage.getByTestId('partner-users');
    await expect(users.locator(`tr[data-user-email="${viewer}"]`)).toContainText('Viewer');
    // The owner cannot remove or demote themselves (no button), the others they may.
    await expect(users.getByRole('button', { name: `Remove ${owner}` })).toHaveCount(0);
    await expect(users.getByRole('button', { name: `Remove ${viewer}` })).toBeVisible();
    await shots(ownerPage, 'owner-team', 'partner-users');
  });

  await test.step('the viewer sees their partner with no control that writes', async () => {
    await viewerPage.goto(`/dashboard/partners/${mine.partnerId}`);
    await expect(viewerPage.getByTestId('signed-in-role')).toHaveText('Viewer');
    await expect(viewerPage.getByTestId('keys-partner')).toContainText('owner key');
    await expect(viewerPage.getByTestId('webhooks')).toContainText('https://hooks.partner.example/encore');
    await hydrated(viewerPage, '[data-testid="keys-partner"]');
    const main = viewerPage.locator('main');
    for (const button of [
      'Create key',
      /^Revoke /,
      /^Rotate /,
      'Send test message',
      'Disable partner',
      'Wipe test data',
      /^Save/,
    ]) {
      await expect(main.getByRole('button', { name: button })).toHaveCount(0);
    }
    await expect(
      viewerPage.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Team' }),
    ).toHaveCount(0);
    await shots(viewerPage, 'viewer-overview', 'keys-partner');
    await viewerPage.goto(`/dashboard/partners/${mine.partnerId}/team`);
    await expect(viewerPage.getByTestId('partner-users')).toContainText(owner);
    await expect(viewerPage.getByRole('form', { name: 'Invite a user' })).toHaveCount(0);
    await expect(viewerPage.getByRole('button', { name: /^Remove |^Change the role / })).toHaveCount(0);
    await viewerPage.goto(`/dashboard/partners/${mine.partnerId}/statement`);
    await expect(viewerPage.getByRole('heading', { name: 'Fees and payouts', level: 1 })).toBeVisible();
    await expect(viewerPage.getByRole('link', { name: 'Download purchases CSV' })).toBeVisible();
    await shots(viewerPage, 'viewer-statement', 'partner-brand');
    // What the page does not offer, asked directly: 403.
    const status = await viewerPage.evaluate(async (id) => {
      const res = await fetch('/api/trpc/partners.keys.create?batch=1', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ 0: { json: { partnerId: id, kind: 'partner', label: 'not mine to make' } } }),
      });
      return res.status;
    }, mine.partnerId);
    expect(status).toBe(403);
  });
  await ownerPage.context().close();
  await viewerPage.context().close();
});

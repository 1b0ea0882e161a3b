import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from './fixtures';
import { buyIntention, hydrated, partnerWithListing, payInOwnContext, RUN, setUp, shot, signIn } from './helpers';

/*
 * Staff roles in the dashboard: an admin invites a viewer, a support and a finance member; each sees on a
 * partner's pages only the controls of what their role may do (no button that answers "forbidden"), and a
 * call the page does not offer is refused by the server all the same. The admin changes a role on the
 * staff page, and the audit log shows it.
 */

const PASSWORD = 'role-member-password-1';
const REF = `ROLE-${RUN}`;
const SELLER = `role-seller-${RUN}@fans.test`;
const BUYER = `role-buyer-${RUN}@fans.test`;
const TICKET = `RL-${RUN}`;
const member = (role: string) => `role-${role}-${RUN}@encore.test`;

/** A partner with a webhook endpoint and one completed, paid purchase (a refund to offer, a mail to resend). */
async function partnerWithPurchase(browser: Browser, request: APIRequestContext) {
  const { partnerId, apiKey, listingId } = await partnerWithListing(request, {
    name: `Roles ${RUN}`,
    event: { ref: REF, title: `Roles night ${RUN}`, description: 'Roles' },
    listing: { seller: SELLER, ticketId: TICKET, price: '44' },
  });
  await setUp('webhook-endpoint', { partnerId, url: 'https://hooks.partner.example/encore' });
  const intention = await buyIntention(request, apiKey, [listingId], BUYER);
  await (await payInOwnContext(browser, intention.paymentUrl)).context().close();
  return { partnerId, intentionId: intention.id };
}

/** An invitation made through the tRPC API with the admin's session, as the invite form makes it; its link. */
async function inviteByApi(admin: Page, email: string, role: string): Promise<string> {
  const res = await admin.request.post('/api/trpc/staff.invite', { data: { json: { email, role } } });
  expect(res.status(), await res.text()).toBe(200);
  const { token } = (await res.json()).result.data.json as { token: string };
  return `/invite/${encodeURIComponent(token)}`;
}

/** The invitee opens the link in a browser of their own, sets a password and lands on the dashboard. */
async function join(browser: Browser, link: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(link, 'http://x').pathname);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/** The partner's page, its client sections rendered and live. */
async function openPartner(page: Page, partnerId: string) {
  await page.goto(`/dashboard/partners/${partnerId}`);
  await expect(page.getByTestId('keys-partner')).toBeVisible();
  await expect(page.getByTestId('webhooks')).toBeVisible();
  await hydrated(page, '[data-testid="keys-partner"]');
}

/** What a role may do with keys and webhooks on the partner's page. */
async function expectKeyControls(page: Page, shown: boolean) {
  const count = shown ? 1 : 0;
  const keys = page.getByTestId('keys-partner');
  await expect(keys.getByRole('button', { name: 'Create key' })).toHaveCount(count);
  await expect(keys.getByRole('button', { name: /^Revoke sk_live_/ })).toHaveCount(count);
  await expect(page.getByTestId('publishable-key-live').getByRole('button', { name: /^Rotate / })).toHaveCount(count);
  await expect(page.getByRole('form', { name: 'Webhook endpoint' })).toHaveCount(count);
  await expect(page.getByTestId('webhooks').getByRole('button', { name: 'Send test message' })).toHaveCount(count);
  await expect(page.getByRole('form', { name: 'Rename partner' })).toHaveCount(count);
  await expect(page.getByRole('button', { name: 'Disable partner' })).toHaveCount(count);
}

/** The refund button on the market's purchases, and the CSV links of the money and leads pages. */
async function expectMoneyControls(page: Page, partnerId: string, intentionId: string, shown: boolean) {
  const count = shown ? 1 : 0;
  await page.goto(`/dashboard/partners/${partnerId}/market?view=purchases`);
  const row = page.locator(`tr[data-purchase-id="${intentionId}"]`);
  await expect(row).toContainText('44.00 EUR');
  await expect(row.getByRole('button', { name: `Refund ${intentionId}` })).toHaveCount(count);
  await page.goto(`/dashboard/money?partner=${partnerId}`);
  await expect(page.getByRole('heading', { name: 'Money', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download purchases CSV' })).toHaveCount(count);
  await page.goto(`/dashboard/partners/${partnerId}/leads`);
  await expect(page.getByRole('heading', { name: 'Leads', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Download CSV/ })).toHaveCount(count);
}

/** On the fan's search page: which of the support actions (resend, refund) the role is offered. */
async function expectFanActions(page: Page, actions: { resend: boolean; refund: boolean }) {
  await page.goto(`/dashboard/search?q=${encodeURIComponent(BUYER)}`);
  const mails = page.getByRole('table', { name: 'Mails' });
  await expect(mails).toContainText('purchaseConfirmation');
  await expect(mails.getByRole('button', { name: /^Resend / })).toHaveCount(actions.resend ? 1 : 0);
  const purchases = page.getByRole('table', { name: 'Purchases' });
  await expect(purchases.getByRole('button', { name: /^Refund / })).toHaveCount(actions.refund ? 1 : 0);
}

/** The page at a phone's and a laptop's width, once `ready` shows at each. */
async function shots(page: Page, name: string, ready: Locator) {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(ready).toBeVisible();
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('each role sees only the controls it may use; the server refuses the rest; an admin changes a role', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const { partnerId, intentionId } = await partnerWithPurchase(browser, request);
  // Each invited member's page, in a browser context of their own.
  const members = new Map<'viewer' | 'support' | 'finance', Page>();
  const as = (role: 'viewer' | 'support' | 'finance') => members.get(role)!;

  await test.step('the admin invites a finance member through the form, a viewer and a support member through the API', async () => {
    await page.goto('/dashboard/staff');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();
    const invitations = page.getByTestId('staff-invitations');
    const form = invitations.getByRole('form', { name: 'Invite a staff member' });
    await hydrated(page, 'form[aria-label="Invite a staff member"]');
    await expect(form.getByLabel('Role', { exact: true })).toHaveValue('viewer');
    await form.getByLabel('E-mail').fill(member('finance'));
    await form.getByLabel('Role', { exact: true }).selectOption('finance');
    await form.getByRole('button', { name: 'Invite' }).click();
    const link = (await invitations.getByTestId('secret-value').textContent()) ?? '';
    expect(link).toMatch(/\/invite\/[A-Za-z0-9]{32}$/);
    await expect(invitations.locator(`tr[data-invitation-email="${member('finance')}"]`)).toContainText('Finance');
    members.set('finance', await join(browser, link));
    members.set('viewer', await join(browser, await inviteByApi(page, member('viewer'), 'viewer')));
    members.set('support', await join(browser, await inviteByApi(page, member('support'), 'support')));
    await page.reload();
    for (const [role, name] of [
      ['viewer', 'Viewer'],
      ['support', 'Support'],
      ['finance', 'Finance'],
    ]) {
      await expect(page.locator(`tr[data-staff-email="${member(role)}"]`).getByTestId('staff-role')).toHaveText(name);
    }
    await shots(page, 'roles-staff-admin', page.getByRole('form', { name: 'Invite a staff member' }));
  });

  await test.step('a viewer sees no control that changes anything, and the server refuses a call all the same', async () => {
    const viewer = as('viewer');
    await expect(viewer.getByTestId('signed-in-role')).toHaveText('Viewer');
    await openPartner(viewer, partnerId);
    await expectKeyControls(viewer, false);
    // The settings are there to read.
    await expect(viewer.getByTestId('webhooks')).toContainText('https://hooks.partner.example/encore');
    await expect(viewer.getByTestId('partner-settings')).toContainText(`Roles ${RUN}`);
    await shots(viewer, 'roles-partner-viewer', viewer.getByTestId('partner-settings'));
    await expectMoneyControls(viewer, partnerId, intentionId, false);
    await expectFanActions(viewer, { resend: false, refund: false });
    await viewer.goto('/dashboard/staff');
    await expect(viewer.getByTestId('staff-members')).toContainText(member('viewer'));
    await expect(viewer.getByRole('form', { name: 'Invite a staff member' })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: /^Change the role of / })).toHaveCount(0);
    await expect(viewer.getByRole('button', { name: /^Remove / })).toHaveCount(0);

    // What the page does not offer, asked directly from the page (the tRPC client's batch format): 403.
    const status = await viewer.evaluate(async (id) => {
      const res = await fetch('/api/trpc/partners.keys.create?batch=1', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ 0: { json: { partnerId: id, kind: 'partner', label: 'not mine to make' } } }),
      });
      return res.status;
    }, partnerId);
    expect(status).toBe(403);
    const csv = await viewer.request.get(`/dashboard/partners/${partnerId}/exports/purchases`);
    expect(csv.status()).toBe(403);
  });

  await test.step('support resends mails but has no key controls, refund or export', async () => {
    const support = as('support');
    await openPartner(support, partnerId);
    await expectKeyControls(support, false);
    await expectMoneyControls(support, partnerId, intentionId, false);
    await expectFanActions(support, { resend: true, refund: false });
  });

  await test.step('finance refunds and exports but has no key controls or mail resend', async () => {
    const finance = as('finance');
    await openPartner(finance, partnerId);
    await expectKeyControls(finance, false);
    await expectMoneyControls(finance, partnerId, intentionId, true);
    await expectFanActions(finance, { resend: false, refund: true });
  });

  await test.step('the admin sees every control', async () => {
    await openPartner(page, partnerId);
    await expectKeyControls(page, true);
    await expectMoneyControls(page, partnerId, intentionId, true);
    await expectFanActions(page, { resend: true, refund: true });
  });

  await test.step('the admin makes the viewer support on the staff page; it holds from their next page', async () => {
    await page.goto('/dashboard/staff');
    const row = page.locator(`tr[data-staff-email="${member('viewer')}"]`);
    await hydrated(page, `tr[data-staff-email="${member('viewer')}"] button`);
    await row.getByRole('button', { name: `Change the role of ${member('viewer')}` }).click();
    const dialog = page.getByRole('dialog', { name: `Change the role of ${member('viewer')}` });
    await expect(dialog.getByLabel('Role', { exact: true })).toBeFocused();
    await expect(dialog.getByLabel('Role', { exact: true })).toHaveValue('viewer');
    await dialog.getByLabel('Role', { exact: true }).selectOption('support');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('staff-role')).toHaveText('Support');
    await expectFanActions(as('viewer'), { resend: true, refund: false });
  });

  await test.step('taking an admin role away asks first', async () => {
    const email = `role-second-admin-${RUN}@encore.test`;
    const second = await join(browser, await inviteByApi(page, email, 'admin'));
    await page.reload();
    const row = page.locator(`tr[data-staff-email="${email}"]`);
    await expect(row.getByTestId('staff-role')).toHaveText('Admin');
    await hydrated(page, `tr[data-staff-email="${email}"] button`);
    await row.getByRole('button', { name: `Change the role of ${email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Change the role of ${email}` });
    await dialog.getByLabel('Role', { exact: true }).selectOption('finance');
    await shot(page, 'roles-change-role-dialog');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Make ${email} Finance?` });
    await expect(confirm).toContainText('They are an admin now');
    await shot(page, 'roles-demote-admin-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(row.getByTestId('staff-role')).toHaveText('Admin');
    await row.getByRole('button', { name: `Change the role of ${email}` }).click();
    await dialog.getByLabel('Role', { exact: true }).selectOption('finance');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await confirm.getByRole('button', { name: 'Change role' }).click();
    await expect(confirm).toBeHidden();
    await expect(row.getByTestId('staff-role')).toHaveText('Finance');
    await second.goto('/dashboard/staff');
    await expect(second.getByTestId('signed-in-role')).toHaveText('Finance');
    await expect(second.getByRole('form', { name: 'Invite a staff member' })).toHaveCount(0);
    await second.context().close();
  });

  await test.step('the audit log shows the role changes, before → after', async () => {
    await page.goto(`/dashboard/audit?action=staff.role_changed&q=${encodeURIComponent(member('viewer'))}`);
    const entries = page.getByTestId('audit-entry');
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText('staff.role_changed');
    await expect(entries.first().getByLabel('before: viewer')).toBeVisible();
    await expect(entries.first().getByLabel('after: support')).toBeVisible();
  });

  for (const p of members.values()) await p.context().close();
});

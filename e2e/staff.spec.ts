import { type Page, expect, test } from './fixtures';
import { ADMIN_EMAIL, ADMIN_PASSWORD, RUN, shot, submitNewPartner } from './helpers';

async function signInAs(page: Page, email: string, password: string) {
  await page.goto('/signin');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
}

test('staff rename, disable and re-enable a partner; a disabled partner’s key gets 403', async ({ page, request }) => {
  const original = `Staff E2E ${RUN}`;
  const renamed = `Renamed E2E ${RUN}`;
  await signInAs(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/dashboard/partners/new');
  await submitNewPartner(page, original);
  await expect(page.getByTestId('secret-value').nth(0)).toHaveText(/^sk_live_/);
  const apiKey = (await page.getByTestId('secret-value').nth(0).textContent()) ?? '';
  expect(apiKey).toMatch(/^sk_live_/);
  await page.getByRole('link', { name: 'Open partner' }).click();
  await expect(page).toHaveURL(/\/dashboard\/partners\/ptr_\w+$/);

  const settings = page.getByTestId('partner-settings');
  await test.step('rename: an empty name is refused beside the field, then a valid name is stored', async () => {
    const name = settings.getByRole('textbox', { name: 'Name' });
    // maxLength stops typing past 100, so an empty name shows the server's message instead.
    await name.fill('   ');
    await settings.getByRole('button', { name: 'Rename' }).click();
    await expect(settings.getByText('Name is required')).toBeVisible();
    await name.fill(renamed);
    await settings.getByRole('button', { name: 'Rename' }).click();
    await expect(settings.getByRole('status')).toHaveText('Saved.');
    await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();
    const me = await request.get('/v1/me', { headers: { authorization: `Bearer ${apiKey}` } });
    expect(me.status()).toBe(200);
    expect((await me.json()).data.name).toBe(renamed);
  });

  await test.step('logo: only an https URL is taken; the resale entry page is shown with its URL', async () => {
    const logo = settings.getByRole('textbox', { name: 'Logo URL' });
    await logo.fill('http://cdn.example.com/logo.png');
    await settings.getByRole('button', { name: 'Save logo' }).click();
    await expect(settings.getByText('The logo must be an https:// URL')).toBeVisible();
    await logo.fill('https://cdn.example.com/logo.png');
    await settings.getByRole('button', { name: 'Save logo' }).click();
    await expect(settings.getByRole('form', { name: 'Partner logo' }).getByRole('status')).toHaveText('Saved.');
    await expect(page.getByTestId('resale-entry-url')).toHaveText(/\/resale\/ptr_\w+$/);
  });

  await test.step('disable asks first, then the key gets 403 and the list shows a badge', async () => {
    await settings.getByRole('button', { name: 'Disable partner' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Disable ${renamed}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await request.get('/v1/me', { headers: { authorization: apiKey } })).status()).toBe(200);

    await settings.getByRole('button', { name: 'Disable partner' }).click();
    await dialog.getByRole('button', { name: 'Disable partner' }).click();
    await expect(dialog).toBeHidden();
    await expect(settings.getByText('Disabled', { exact: true })).toBeVisible();
    const me = await request.get('/v1/me', { headers: { authorization: apiKey } });
    expect(me.status()).toBe(403);
    expect((await me.json()).errors.message).toBe('This partner is disabled. Contact Encore support.');
    await shot(page, 'staff-01-partner-disabled');

    await page.goto(`/dashboard/partners?q=${encodeURIComponent(renamed)}`);
    const row = page.getByRole('row').filter({ hasText: renamed });
    await expect(row.getByText('Disabled', { exact: true })).toBeVisible();
  });

  await test.step('enable restores access with the same key', async () => {
    await page.getByRole('link', { name: renamed }).click();
    await page.getByTestId('partner-settings').getByRole('button', { name: 'Enable partner' }).click();
    await expect(page.getByTestId('partner-settings').getByText('Active', { exact: true })).toBeVisible();
    expect((await request.get('/v1/me', { headers: { authorization: apiKey } })).status()).toBe(200);
  });
});

test('an invited member sets a password and signs in; removing them signs them out', async ({ page, browser }) => {
  const email = `invitee-${RUN}@encore.test`;
  const password = 'invitee-password-1';
  await signInAs(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: 'Staff', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/staff$/);

  const invitations = page.getByTestId('staff-invitations');
  await invitations.getByLabel('E-mail').fill(email);
  await invitations.getByRole('button', { name: 'Invite' }).click();
  const link = (await invitations.getByTestId('secret-value').textContent()) ?? '';
  expect(link).toMatch(/\/invite\/[A-Za-z0-9]{32}$/);
  await expect(invitations.getByRole('row').filter({ hasText: email })).toBeVisible();
  await shot(page, 'staff-02-invited');

  const other = await browser.newContext();
  const invitee = await other.newPage();
  await test.step('the invitee accepts the link in another browser and is signed in', async () => {
    await invitee.goto(link);
    await expect(invitee.getByText(`You were invited as ${email}`)).toBeVisible();
    await invitee.getByLabel('Password', { exact: true }).fill(password);
    await invitee.getByLabel('Repeat password').fill(password);
    await invitee.getByRole('button', { name: 'Create account' }).click();
    await expect(invitee).toHaveURL(/\/dashboard$/);
    await expect(invitee.locator('.sidebar-user')).toHaveText(email);
    // The link works once.
    await invitee.goto(link);
    await expect(invitee.getByText('This invitation link is invalid, already used or expired')).toBeVisible();
    await invitee.goto('/dashboard/partners');
    await expect(invitee).toHaveURL(/\/dashboard\/partners$/);
  });

  await test.step('the admin removes them (after confirming); their next page load goes to sign-in', async () => {
    await page.reload();
    const row = page.locator(`tr[data-staff-email="${email}"]`);
    await row.getByRole('button', { name: `Remove ${email}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Remove ${email}?` });
    await dialog.getByRole('button', { name: 'Remove member' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);

    await invitee.goto('/dashboard/partners');
    await expect(invitee).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard%2Fpartners/);
    const trpc = await invitee.request.get('/api/trpc/staff.list');
    expect(trpc.status()).toBe(401);
  });
  await other.close();
});

test('sign-in is paused after repeated failures for one e-mail', async ({ page }) => {
  // A dedicated address, so no other spec's account is locked out.
  const email = `locked-${RUN}@encore.test`;
  await page.goto('/signin');
  await page.getByLabel('E-mail').fill(email);
  for (let i = 0; i < 10; i += 1) {
    await page.getByLabel('Password').fill(`wrong-${i}`);
    await page.getByLabel('Password').press('Enter');
    // The button reads "Signing in…" while an attempt runs; wait for each to finish before the next.
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password' })).toBeVisible();
  }
  await page.getByLabel('Password').fill('wrong-again');
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Too many failed sign-in attempts' })).toBeVisible();
  await shot(page, 'staff-03-signin-limited');
});

test('sessions end on the server: sign out, sign out everywhere, a new password', async ({ page, browser }) => {
  const email = `sessions-${RUN}@encore.test`;
  const password = 'sessions-password-1';
  await signInAs(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/staff');
  const invitations = page.getByTestId('staff-invitations');
  await invitations.getByLabel('E-mail').fill(email);
  await invitations.getByRole('button', { name: 'Invite' }).click();
  const link = (await invitations.getByTestId('secret-value').textContent()) ?? '';

  const laptop = await browser.newContext();
  const member = await laptop.newPage();
  await member.goto(link);
  await member.getByLabel('Password', { exact: true }).fill(password);
  await member.getByLabel('Repeat password').fill(password);
  await member.getByRole('button', { name: 'Create account' }).click();
  await expect(member).toHaveURL(/\/dashboard$/);
  const phone = await browser.newContext();
  const onPhone = await phone.newPage();
  await signInAs(onPhone, email, password);
  await expect(onPhone).toHaveURL(/\/dashboard$/);

  await test.step('signing out ends that session: a copy of its cookie opens nothing', async () => {
    const kept = await laptop.cookies();
    await member.getByRole('button', { name: 'Sign out' }).click();
    await expect(member).toHaveURL(/\/signin/);
    const copy = await browser.newContext();
    await copy.addCookies(kept);
    expect((await copy.request.get('/api/trpc/staff.list')).status()).toBe(401);
    await copy.close();
    expect((await phone.request.get('/api/trpc/staff.list')).status()).toBe(200);
  });

  await test.step('a new password needs the current one and signs the member out everywhere', async () => {
    await signInAs(member, email, password);
    await expect(member).toHaveURL(/\/dashboard$/);
    await member.goto('/dashboard/staff');
    const form = member.getByTestId('staff-password');
    await form.getByLabel('Current password').fill('not my password');
    await form.getByLabel('New password').fill('sessions-password-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(form.getByText('That is not your current password')).toBeVisible();
    await shot(member, 'staff-04-password-wrong');
    await form.getByLabel('Current password').fill(password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await expect(member).toHaveURL(/\/signin/);
    expect((await phone.request.get('/api/trpc/staff.list')).status()).toBe(401);
    await signInAs(member, email, 'sessions-password-2');
    await expect(member).toHaveURL(/\/dashboard$/);
  });

  await test.step('"sign out everywhere" ends every session of the member', async () => {
    await signInAs(onPhone, email, 'sessions-password-2');
    await expect(onPhone).toHaveURL(/\/dashboard$/);
    await member.goto('/dashboard/staff');
    const row = member.locator(`tr[data-staff-email="${email}"]`);
    await row.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = member.getByRole('alertdialog', { name: 'Sign out everywhere?' });
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(member).toHaveURL(/\/signin/);
    expect((await phone.request.get('/api/trpc/staff.list')).status()).toBe(401);
  });
  await laptop.close();
  await phone.close();
});

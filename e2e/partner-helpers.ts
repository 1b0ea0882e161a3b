import { expect, type Browser, type Page } from './fixtures';

/** The password every partner user of these specs chooses. */
const PARTNER_USER_PASSWORD = 'partner-user-password-1';

/** A partner user's invitation made through the tRPC API with a signed-in page's session; its link's path. */
export async function invitePartnerUserByApi(
  inviter: Page,
  partnerId: string,
  email: string,
  role: 'owner' | 'developer' | 'viewer',
): Promise<string> {
  const res = await inviter.request.post('/api/trpc/partnerUsers.invite', {
    data: { json: { partnerId, email, role } },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { token } = (await res.json()).result.data.json as { token: string };
  return `/invite/${encodeURIComponent(token)}`;
}

/**
 * The invitee opens the link in a browser of their own, sees whose invitation it is, sets a password and is
 * signed in (the account form signs in); returns that browser's page.
 */
export async function acceptPartnerInvitation(browser: Browser, link: string, partnerName: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(link, 'http://x').pathname);
  await expect(page.getByRole('heading', { name: `Join ${partnerName} on Encore` })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(PARTNER_USER_PASSWORD);
  await page.getByLabel('Repeat password').fill(PARTNER_USER_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard\/partners\/ptr_/);
  return page;
}

/** A partner user signs in on the sign-in page in a fresh browser and lands on their partner's page. */
export async function signInPartnerUser(browser: Browser, email: string, partnerId: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PARTNER_USER_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(new RegExp(`/dashboard/partners/${partnerId}$`));
  return page;
}

/** The HTTP status of a full page load of `path`. */
export async function statusOf(page: Page, path: string): Promise<number | undefined> {
  return (await page.goto(path))?.status();
}

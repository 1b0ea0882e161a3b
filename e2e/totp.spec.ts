import { totpCode } from '../server/lib/totp';
import { type Browser, expect, type Locator, type Page, test } from './fixtures';
import { axe, createPartner, hydrated, RUN, signIn } from './helpers';

/*
 * Two-factor sign-in, as a member uses it: a new member sets it up on their Security page (the code is
 * computed here from the secret the page shows, for the step it is now: no waiting for a clock), signs
 * out, is asked for a code after the password, gets in with a current code, and a code used once is
 * refused the second time.
 */

const PASSWORD = 'totp-member-password-1';
const EMAIL = `totp-${RUN}@encore.test`;
const STEP_MS = 30_000;

/** Screenshots for people to look at (skipped like the helpers' shots when E2E_SHOTS=0). */
async function shots(page: Page, name: string, ready: Locator) {
  if (process.env.E2E_SHOTS === '0') return;
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(ready).toBeVisible();
    await page.screenshot({ path: `test-results/totp-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/**
 * The admin invites a viewer (the tRPC call the invite form makes): of Encore's staff, or of `partnerId` as
 * the partner's user. The member joins in a browser of their own.
 */
async function newMember(browser: Browser, admin: Page, email = EMAIL, partnerId?: string): Promise<Page> {
  const res = partnerId
    ? await admin.request.post('/api/trpc/partnerUsers.invite', {
        data: { json: { partnerId, email, role: 'viewer' } },
      })
    : await admin.request.post('/api/trpc/staff.invite', { data: { json: { email, role: 'viewer' } } });
  expect(res.status(), await res.text()).toBe(200);
  const { token } = (await res.json()).result.data.json as { token: string };
  const page = await (await browser.newContext()).newPage();
  await page.goto(`/invite/${encodeURIComponent(token)}`);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  // Encore's staff land on the overview, a partner's user on their partner's page.
  await expect(page).toHaveURL(partnerId ? /\/dashboard\/partners\/ptr_\w+$/ : /\/dashboard$/);
  return page;
}

/** E-mail and password on the sign-in page the browser is on; the form then asks for the code. */
async function passwordStep(page: Page, email = EMAIL) {
  await hydrated(page, 'form');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page.getByTestId('signin-code-step')).toBeVisible();
  await expect(page.getByTestId('signin-code-step')).toContainText(email);
}

/** Sets it up on the Security page the member is on, turned on with the current code; the secret shown. */
async function turnOn(member: Page, name?: string): Promise<string> {
  const card = member.getByTestId('two-factor');
  await expect(card).toContainText('Off');
  await hydrated(member, '[data-testid="two-factor"] button');
  await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await card.getByTestId('secret-value').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(card.getByTestId('two-factor-uri')).toHaveText(
    new RegExp(`^otpauth://totp/Encore:.+\\?secret=${secret}&issuer=Encore&algorithm=SHA1&digits=6&period=30$`),
  );
  await expect(card.getByTestId('two-factor-qr').locator('svg')).toBeVisible();
  if (name) {
    await axe(member, 'security page, setting up');
    await shots(member, name, card.getByTestId('secret-value'));
  }
  // A wrong code does not turn it on; the current one does.
  const now = totpCode(secret, Date.now());
  await card.getByLabel('Code from your app').fill(now === '000000' ? '111111' : '000000');
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByText(/That code is not right/)).toBeVisible();
  await card.getByLabel('Code from your app').fill(totpCode(secret, Date.now()));
  await card.getByRole('button', { name: 'Turn on' }).click();
  await expect(card.getByText('On', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Turn off two-factor sign-in' })).toBeVisible();
  return secret;
}

/**
 * The admin signed in on `admin`, a new member (of Encore's staff, or `partnerId`'s user) joined in a browser of
 * their own and on their Security page, from the sidebar.
 */
async function memberOnSecurityPage(browser: Browser, admin: Page, email = EMAIL, partnerId?: string) {
  await admin.goto('/signin');
  await signIn(admin);
  await expect(admin).toHaveURL(/\/dashboard$/);
  const member = await newMember(browser, admin, email, partnerId);
  await member.getByRole('link', { name: 'Security' }).click();
  await expect(member.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  return member;
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin/);
}

test('a member sets up two-factor sign-in; signing in then needs a current code, good once', async ({
  browser,
  page,
}) => {
  // The Security page: off, then set up.
  const member = await memberOnSecurityPage(browser, page);
  const card = member.getByTestId('two-factor');
  const first = await turnOn(member, 'security-setup');

  // Turned off after asking, with a code later than the one just spent (the next step's, within the drift).
  await card.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
  const dialog = member.getByRole('alertdialog', { name: 'Turn off two-factor sign-in?' });
  await dialog.getByLabel('Code from your app').fill(totpCode(first, Date.now() + STEP_MS));
  await shots(member, 'security-turn-off', dialog);
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog).toBeHidden();

  // On again, with a new secret.
  const secret = await turnOn(member);
  expect(secret).not.toBe(first);
  await shots(member, 'security-on', card.getByRole('button', { name: 'Turn off two-factor sign-in' }));

  // Signed out: the password alone opens nothing, the form asks for the code.
  await signOut(member);
  await passwordStep(member);
  await member.goto('/dashboard');
  await expect(member).toHaveURL(/\/signin\?callbackUrl=/);
  await passwordStep(member);
  await axe(member, 'sign-in, code step');
  await shots(member, 'signin-code', member.getByLabel('Authentication code'));

  // A code gets in: the next step's (within the drift), as the current step's was spent turning it on a
  // moment ago; whenever the clock turns over meanwhile, that code is still later than the spent one and
  // at most one step from the server's.
  const code = totpCode(secret, Date.now() + STEP_MS);
  await member.getByLabel('Authentication code').fill(code);
  await member.getByLabel('Authentication code').press('Enter');
  await expect(member).toHaveURL(/\/dashboard$/);

  // The same code again is refused, with a clear error.
  await signOut(member);
  await passwordStep(member);
  await member.getByLabel('Authentication code').fill(code);
  await member.getByLabel('Authentication code').press('Enter');
  await expect(member.getByText(/That code is wrong or was used already/)).toBeVisible();
  await expect(member.getByLabel('Authentication code')).toHaveAttribute('aria-invalid', 'true');
  await shots(member, 'signin-code-refused', member.getByText(/That code is wrong or was used already/));
  await member.goto('/dashboard');
  await expect(member).toHaveURL(/\/signin\?callbackUrl=/);
});

test("a partner's user sets it up on their own Security page too, and signs in with a code", async ({
  browser,
  page,
}) => {
  const { partnerId } = await createPartner(`TOTP ${RUN}`);
  const email = `totp-partner-${RUN}@partner.test`;
  const user = await memberOnSecurityPage(browser, page, email, partnerId);
  const secret = await turnOn(user);
  await shots(user, 'security-partner-user', user.getByTestId('two-factor'));

  await signOut(user);
  await passwordStep(user, email);
  await user.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + STEP_MS));
  await user.getByLabel('Authentication code').press('Enter');
  await expect(user).toHaveURL(`/dashboard/partners/${partnerId}`);
});

import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from './fixtures';
import { createPartner, RUN, shot, signIn } from './helpers';

/*
 * Fan sign-in by e-mail: the fan asks for a link on the partner's /login page; with no SMTP_URL (the e2e
 * server has none) the mail is stored, and staff read it in the dashboard mailbox; the link in it signs
 * the fan in for that partner and goes on to the page it names. The same in Spanish.
 */

/** No serious or critical axe violation on the page as it is now. */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Staff (in their own browser context) open the newest mail to `to` and answer its text body. */
async function mailboxText(browser: Browser, to: string, subject: string): Promise<string> {
  const staff = await browser.newContext();
  const page = await staff.newPage();
  try {
    await page.goto(`/dashboard/mailbox?q=${encodeURIComponent(to)}`);
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Mailbox' })).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: to }).first();
    await expect(row).toContainText(subject);
    await expect(row).toContainText('Stored');
    await shot(page, `mailbox-${subject.slice(0, 12).replace(/\W+/g, '-')}`);
    await row.getByRole('link', { name: subject }).click();
    await expect(page.getByTestId('mail-subject')).toHaveText(subject);
    await expect(page.getByTestId('mail-to')).toHaveText(to);
    const frame = page.frameLocator('iframe[title^="HTML of the mail"]');
    await expect(frame.getByRole('heading', { level: 1 })).toBeVisible();
    await shot(page, `mail-${subject.slice(0, 12).replace(/\W+/g, '-')}`);
    return (await page.getByTestId('mail-text').textContent()) ?? '';
  } finally {
    await staff.close();
  }
}

test('a fan signs in with a link sent by e-mail, read by staff in the mailbox', async ({ page, browser }) => {
  const name = `E2E Login ${RUN}`;
  const { partnerId } = await createPartner(name);
  const email = `fan-${RUN}@fans.test`;
  const next = `/login?partner=${partnerId}`;

  await page.goto(`/login?partner=${partnerId}&next=${encodeURIComponent(next)}&lang=en`);
  await expect(page.getByRole('heading', { level: 1, name: `Sign in to ${name}` })).toBeVisible();
  await expect(page.getByTestId('partner-brand')).toContainText(name);
  await expectAccessible(page);

  // A mistyped address is named at the field.
  await page.getByLabel('E-mail').fill('not-an-address');
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.locator('#login-email-error')).toHaveText('Enter a valid e-mail address, like name@example.com.');
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);

  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText(`If ${email} can sign in here, a sign-in link is on its way.`);
  await shot(page, 'fan-login-sent');

  const text = await mailboxText(browser, email, `Your sign-in link for ${name}`);
  const link = /Sign in: (\S+)/.exec(text)?.[1];
  expect(link).toMatch(/\/auth\/redeem\?token=ott_/);

  await page.goto(link!);
  await expect(page).toHaveURL(new RegExp(`/login\\?partner=${partnerId}$`));
  await expect(page.getByTestId('fan-email')).toHaveText(`Signed in as ${email}`);
  await expect(page.getByText(`You are already signed in as ${email}.`)).toBeVisible();

  // The link works once.
  await page.goto(link!);
  await expect(page).toHaveURL(/\/auth\/expired/);
  await expect(page.getByTestId('expired-login')).toHaveAttribute('href', new RegExp(`partner=${partnerId}`));

  // The fan's session opens no dashboard.
  await page.goto('/dashboard/mailbox');
  await expect(page).toHaveURL(/\/signin/);
});

test('the sign-in page and its mail in Spanish', async ({ page, browser }) => {
  const name = `E2E Acceso ${RUN}`;
  const { partnerId } = await createPartner(name);
  const email = `fan-es-${RUN}@fans.test`;

  await page.goto(`/login?partner=${partnerId}&lang=es`);
  await expect(page.getByRole('heading', { level: 1, name: `Entra en ${name}` })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Enviarme un enlace' }).click();
  await expect(page.getByRole('heading', { name: 'Revisa tu bandeja de entrada' })).toBeVisible();
  await shot(page, 'fan-login-sent-es');

  const text = await mailboxText(browser, email, `Tu enlace para entrar en ${name}`);
  expect(text).toContain('El enlace funciona una vez y caduca en 15 minutos.');
  const link = /Entrar: (\S+)/.exec(text)?.[1];
  await page.goto(link!);
  // `/me` leads a signed-in fan to the partner's resale entry page.
  await expect(page).toHaveURL(new RegExp(`/resale/${partnerId}$`));
  await expect(page.getByTestId('fan-email')).toContainText(email);

  // An unknown partner: the branded not-found page.
  await page.goto('/login?partner=ptr_unknown');
  await expect(page.getByTestId('not-found')).toBeVisible();
});

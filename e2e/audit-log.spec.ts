import { expect, test } from './fixtures';
import { ADMIN_EMAIL, RUN, axe, createPartner, shot, signIn } from './helpers';

test('staff find who changed a partner’s fee in the audit log; a created key shows, never the key', async ({
  page,
}) => {
  const name = `Audit Partner ${RUN}`;
  const { partnerId } = await createPartner(name);
  const other = await createPartner(`Audit Other ${RUN}`);

  await test.step('staff change the partner’s sales fee and create an API key on its page', async () => {
    await page.goto(`/dashboard/partners/${partnerId}`);
    await signIn(page);
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    const fee = page.getByTestId('sales-fee');
    await fee.getByLabel('Fee type').selectOption('PERCENTAGE');
    await fee.getByLabel('Value (%)').fill('7.5');
    await fee.getByLabel('Value (%)').press('Enter');
    await expect(fee.getByRole('status')).toHaveText('Saved.');

    const keys = page.getByTestId('keys-partner');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Label').fill(`audit-${RUN}`);
    await dialog.getByLabel('Label').press('Enter');
    await expect(keys.getByTestId('secret-value')).toHaveText(/^sk_live_/);
  });
  const secret = (await page.getByTestId('keys-partner').getByTestId('secret-value').textContent()) ?? '';
  expect(secret).toMatch(/^sk_live_\w{32}$/);

  await test.step('the partner page shows its latest entries and links to its full log', async () => {
    await page.reload();
    const audit = page.locator('#audit');
    await expect(audit.getByTestId('audit-entry')).toHaveCount(2);
    await expect(audit.getByTestId('audit-entry').first()).toContainText('api_key.created');
    await audit.getByRole('link', { name: 'Full audit log' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/audit\\?partnerId=${partnerId}$`));
  });

  await test.step('the log answers who changed the fee: their e-mail, before → after', async () => {
    await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
    const entries = page.getByTestId('audit-entry');
    await expect(entries).toHaveCount(2);
    // Newest first: the key, then the fee.
    await expect(entries.nth(0)).toContainText('api_key.created');
    const feeEntry = entries.nth(1);
    await expect(feeEntry).toContainText('partner.fees.updated');
    await expect(feeEntry).toContainText(ADMIN_EMAIL);
    await expect(feeEntry.getByLabel('after: PERCENTAGE')).toBeVisible();
    await expect(feeEntry.getByLabel('after: 7.5')).toBeVisible();
    await expect(feeEntry.getByLabel('before: —').first()).toBeVisible();
    await expect(feeEntry).toContainText('primarySalesFee.type');
    // The key shows by its prefix and label; the key itself is nowhere on the page.
    await expect(entries.nth(0)).toContainText(secret.slice(0, 14));
    await expect(entries.nth(0)).toContainText(`audit-${RUN}`);
    expect(await page.content()).not.toContain(secret);
    await axe(page, 'audit log');
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `audit-log-${width}`);
    }
  });

  await test.step('filters: another partner has none of these; the fee by action and by who', async () => {
    await page.goto('/dashboard/audit');
    await page.getByLabel('Partner ID').fill(other.partnerId);
    await page.getByLabel('Partner ID').press('Enter');
    await expect(page).toHaveURL(new RegExp(`partnerId=${other.partnerId}`));
    await expect(page.getByText('No entry matches these filters')).toBeVisible();

    await page.goto(
      `/dashboard/audit?partnerId=${partnerId}&action=partner.fees&actor=${encodeURIComponent(ADMIN_EMAIL)}`,
    );
    await expect(page.getByTestId('audit-entry')).toHaveCount(1);
    await expect(page.getByTestId('audit-entry')).toContainText('partner.fees.updated');

    // A date that is not one is named, not a crash.
    await page.goto(`/dashboard/audit?partnerId=${partnerId}&from=yesterday`);
    await expect(page.getByRole('alert').filter({ hasText: 'A filter was not applied' })).toContainText('from:');
    await expect(page.getByTestId('audit-entry')).toHaveCount(2);
    await axe(page, 'audit log, filtered');
  });
});

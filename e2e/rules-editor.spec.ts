import { expect, test } from './fixtures';
import { axe, call, createPartner, hydrated, pushUsdEvent, RUN, shot, signIn } from './helpers';

/*
 * The eligibility rules editor: staff override the partner's rule behind a confirmation, the explainer
 * says which rule wins for a ticket, and the access layer follows at once.
 */

const REF = `RUL-${RUN}`;
const SELLER = `seller-${RUN}@fans.test`;
const TICKET = `RT-${RUN}`;

test('staff override a partner rule behind a confirmation; the explainer and the access layer follow', async ({
  page,
  request,
}) => {
  const { partnerId, apiKey } = await createPartner(`Rules ${RUN}`);
  await pushUsdEvent(request, apiKey, REF, `Rules night ${RUN}`);
  expect(
    (
      await call(request, apiKey, 'POST', '/v1/sync/tickets', [
        {
          externalReferenceEventId: REF,
          showId: '1',
          ticketId: TICKET,
          buyer: { email: SELLER },
          ticketAccess: { type: 'OTHER', locator: 'C' },
          ticketOptionId: 'GA',
        },
      ])
    ).status,
  ).toBe(200);
  expect(
    (
      await call(request, apiKey, 'POST', '/v1/events/rules', [
        { externalReferenceEventId: REF, ruleType: 'RESALE_ENABLED', rules: { enabled: false } },
      ])
    ).status,
  ).toBe(200);
  const sellStatus = async () =>
    (
      await call(request, apiKey, 'POST', '/v1/wrapper/accesslayer', {
        user: SELLER,
        tickets: [{ eventId: REF, showId: '1', ticketId: TICKET, ticketOptionId: 'GA' }],
      })
    ).body.data.tickets[0].status;
  expect(await sellStatus()).toBe('NOT_SELLABLE');

  await page.goto(`/dashboard/partners/${partnerId}/rules?event=${REF}&ticket=${TICKET}`);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Resale rules', level: 1 })).toBeVisible();
  const explainer = page.getByTestId('explainer');
  await expect(explainer).toContainText('not sellable');
  await expect(explainer.getByTestId('winner')).toHaveText('Resale off (event, partner)');
  const rows = page.getByTestId('rule-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Partner');

  await hydrated(page, '[data-testid="rule-form"] button');
  const form = page.getByTestId('rule-form');
  await form.getByLabel('Rule type').selectOption('RESALE_ENABLED');
  await form.getByLabel('Resale').selectOption('yes');
  await form.getByRole('button', { name: 'Review rule' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Whole event');
  await expect(dialog).toContainText('Resale on');
  await shot(page, 'rules-confirm');
  await dialog.getByRole('button', { name: 'Set rule' }).click();
  await expect(page.getByRole('status')).toHaveText('Staff rule saved.');
  await expect(rows).toHaveCount(2);
  await expect(page.locator('[data-testid="rule-row"][data-source="PARTNER"]')).toContainText('Overridden by staff');
  expect(await sellStatus()).toBe('SELLABLE');

  await page.reload();
  await expect(page.getByTestId('explainer').getByTestId('winner')).toHaveText('Resale on (event, staff)');
  await expect(page.getByTestId('explainer')).toContainText('Nothing stops this ticket from being listed.');
  await axe(page, 'rules');

  await hydrated(page, '[data-testid="rule-row"] button');
  await page.locator('[data-testid="rule-row"][data-source="STAFF"]').getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove rule' }).click();
  await expect(page.getByRole('status')).toHaveText('Staff rule removed.');
  await expect(rows).toHaveCount(1);
  expect(await sellStatus()).toBe('NOT_SELLABLE');
});

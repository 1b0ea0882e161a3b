import { expect, type Locator, test } from './fixtures';
import { axe, call, createPartner, hydrated, pushUsdEvent, RUN, shot, signIn } from './helpers';

/*
 * Banners end to end: staff configure a sell banner in the dashboard, watch its live
 * preview at a phone's and a desktop's width, and the access layer (over real HTTP, with the partner's
 * key) answers exactly what the preview showed.
 */

const REF = `BNR-${RUN}`;
const SELLER = `seller-${RUN}@fans.test`;

/** What a rendered banner shows: the fields a partner's page would draw. */
async function shown(banner: Locator) {
  const cta = banner.locator('[data-field="cta"]');
  return {
    title: await banner.locator('[data-field="title"]').textContent(),
    description: await banner.locator('[data-field="description"]').textContent(),
    image: await banner.locator('[data-field="image"]').getAttribute('src'),
    visible: (await banner.getAttribute('data-visible')) === 'true',
    background: await banner.evaluate((el) => getComputedStyle(el).backgroundColor),
    text: await banner.evaluate((el) => getComputedStyle(el).color),
    cta: {
      text: await cta.textContent(),
      url: await cta.getAttribute('href'),
      background: await cta.evaluate((el) => getComputedStyle(el).backgroundColor),
      color: await cta.evaluate((el) => getComputedStyle(el).color),
    },
  };
}

const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

test('a banner configured in the dashboard appears in the access layer exactly as previewed', async ({
  page,
  request,
}) => {
  const { partnerId, apiKey } = await createPartner(`Banners ${RUN}`);
  await pushUsdEvent(request, apiKey, REF, `Banner night ${RUN}`);

  await page.goto(`/dashboard/partners/${partnerId}/banners`);
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Banners', level: 1 })).toBeVisible();
  await expect(page.getByText('No banners yet')).toBeVisible();
  await hydrated(page, '[data-testid="banner-list"] button');
  await page.getByRole('button', { name: 'New banner' }).click();
  const form = page.getByTestId('banner-form');
  /** A field by its whole label (optional fields add "(optional)"; "Text colour" ≠ "Button text colour"). */
  const field = (label: string) =>
    form.getByRole('textbox', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\(optional\\))?$`) });

  await test.step('bad values are named at their field', async () => {
    await field('Title').fill('Resell safely');
    await field('Background colour').fill('blue');
    await form.getByRole('button', { name: 'Create banner' }).click();
    await expect(form.getByText('must be a colour like #1a2b3c')).toBeVisible();
  });

  await test.step('the preview follows the form at both widths', async () => {
    await field('Event (externalReferenceId)').fill(REF);
    await field('Show (showId)').fill('1');
    await field('Title').fill(`Can't go? Resell on ${RUN}`);
    await field('Description').fill('Official resale, at face value or less.');
    await field('Image URL').fill('https://cdn.example.com/banner.png');
    await field('Background colour').fill('#0b3d91');
    await field('Text colour').fill('#fefefe');
    await field('Button text').fill('Sell my tickets');
    await field('Button colour').fill('#ffcc00');
    await field('Button text colour').fill('#111111');
    for (const id of ['banner-preview-mobile', 'banner-preview-desktop']) {
      const preview = page.getByTestId(id);
      await expect(preview.locator('[data-field="title"]')).toHaveText(`Can't go? Resell on ${RUN}`);
      await expect(preview.locator('[data-field="cta"]')).toHaveText('Sell my tickets');
    }
    expect((await page.getByTestId('banner-preview-mobile').boundingBox())!.width).toBeLessThanOrEqual(390);
    await shot(page, 'banner-editor');
  });

  const previewed = await shown(page.getByTestId('banner-preview-desktop'));
  expect(previewed).toMatchObject({ background: rgb('#0b3d91'), text: rgb('#fefefe') });
  await form.getByRole('button', { name: 'Create banner' }).click();
  await expect(page.getByRole('status')).toHaveText('Banner created.');
  await expect(page.getByTestId('banner-row')).toHaveCount(1);
  await expect(page.getByTestId('banner-row')).toContainText(`${REF} · show 1`);
  await axe(page, 'banners');

  await test.step('the access layer answers what the preview showed', async () => {
    const res = await call(request, apiKey, 'POST', '/v1/wrapper/accesslayer', {
      user: SELLER,
      tickets: [{ eventId: REF, showId: '1', ticketId: `UNSENT-${RUN}`, ticketOptionId: 'GA' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    expect(res.body.data.components).toHaveLength(1);
    const api = res.body.data.components[0];
    expect(api).toMatchObject({ type: 'banner', class: 'sellBanner' });
    const b = api.sellBanner;
    expect({
      title: b.title,
      description: b.description,
      image: b.image,
      visible: b.visible,
      background: rgb(b.colors.background),
      text: rgb(b.colors.text),
      cta: {
        text: b.callToAction.text,
        url: b.callToAction.url,
        background: rgb(b.callToAction.colors.background),
        color: rgb(b.callToAction.colors.text),
      },
    }).toEqual(previewed);
    expect(b.callToAction.url).toMatch(new RegExp(`/resale/${partnerId}$`));
  });

  await test.step('deleting asks first, then the access layer has no banner', async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('cannot be undone');
    await dialog.getByRole('button', { name: 'Delete banner' }).click();
    await expect(page.getByText('No banners yet')).toBeVisible();
    const res = await call(request, apiKey, 'POST', '/v1/wrapper/accesslayer', {
      user: SELLER,
      tickets: [{ eventId: REF, showId: '1', ticketId: `UNSENT-${RUN}`, ticketOptionId: 'GA' }],
    });
    expect(res.body.data.components).toEqual([]);
  });
});

import { addMonths, firstDailyDay, MONTH_NAMES } from '@paydesk/domain';
import { expect, type Page, test } from '@playwright/test';
import { menu, sessionOf, todayClearOfMidnight } from './support';

// The tests read today's date as they run; the file starts clear of a midnight, so none of them straddles one
// (support.ts).
test.beforeAll(async () => {
  await todayClearOfMidnight();
});

const filters = (page: Page) => ({
  last12: page.getByRole('button', { name: 'Last 12 Months' }),
  last30: page.getByRole('button', { name: 'Last 30 Days' }),
  year: page.getByRole('combobox', { name: 'Year' }),
  month: page.getByRole('combobox', { name: 'Month' }),
  mcc: page.getByRole('combobox', { name: 'MCC' }),
});

async function pick(page: Page, field: ReturnType<typeof filters>['year'], option: string | RegExp) {
  await field.click();
  await page.getByRole('option', { name: option }).first().click();
}

test.describe('Business Intelligence, for a holder of the capability', () => {
  test.use({ storageState: sessionOf('sales.admin@paydesk.local') });

  test.beforeEach(async ({ page }) => {
    await page.goto('/sales');
    await menu(page).getByRole('link', { name: 'Business Intelligence' }).click();
    await expect(page).toHaveURL(/\/bi$/);
    await expect(page.getByTestId('exec-volume')).toBeVisible();
  });

  test('the ISO list searches, and choosing an ISO puts its name and shares in the title', async ({
    page,
  }) => {
    const list = page.getByRole('navigation', { name: 'ISOs' });
    const names = await list.getByRole('button').allInnerTexts();
    expect(names.length).toBeGreaterThan(3);
    const target = names[2] as string;
    await list.getByRole('textbox', { name: 'Search ISOs' }).fill(target.slice(0, 8));
    for (const shown of await list.getByRole('button').allInnerTexts())
      expect(shown.toLowerCase()).toContain(target.slice(0, 8).toLowerCase());
    await list.getByRole('button', { name: target, exact: true }).click();
    await expect(page.getByTestId('iso-title')).toHaveText(target);
    const badges = page.getByTestId('share-badges');
    for (const label of ['CBCAL', 'ESQUIRE', 'CHSPK', 'PayLo', 'Traditional', 'High Risk', 'Not Specified'])
      await expect(badges).toContainText(new RegExp(`${label} \\d+\\.\\d%`));
  });

  test('the filters follow their reset rules', async ({ page }) => {
    const f = filters(page);
    await expect(f.last12).toHaveAttribute('aria-pressed', 'true');
    await expect(f.month).toBeDisabled();

    // A year enables the month, set to All; the preset is no longer in force.
    const year = String(new Date().getUTCFullYear() - 1);
    await pick(page, f.year, year);
    await expect(f.year).toHaveValue(year);
    await expect(f.month).toBeEnabled();
    await expect(f.month).toHaveValue('All');
    await expect(f.last12).toHaveAttribute('aria-pressed', 'false');
    await pick(page, f.month, 'March');
    await expect(f.month).toHaveValue('March');

    // Another year sets the month back to All.
    await pick(page, f.year, String(new Date().getUTCFullYear() - 2));
    await expect(f.month).toHaveValue('All');

    // An MCC, then a preset: year, month and MCC all reset.
    await pick(page, f.mcc, /^\d{4} /);
    await expect(f.mcc).not.toHaveValue('All');
    await f.last30.click();
    await expect(f.last30).toHaveAttribute('aria-pressed', 'true');
    await expect(f.year).toHaveValue('');
    await expect(f.month).toHaveValue('All');
    await expect(f.month).toBeDisabled();
    await expect(f.mcc).toHaveValue('All');

    // Changing the ISO resets the MCC to All and keeps the period.
    await pick(page, f.mcc, /^\d{4} /);
    const list = page.getByRole('navigation', { name: 'ISOs' });
    const other = (await list.getByRole('button').allInnerTexts())[1] as string;
    await list.getByRole('button', { name: other, exact: true }).click();
    await expect(f.mcc).toHaveValue('All');
    await expect(f.last30).toHaveAttribute('aria-pressed', 'true');
  });

  test('the ISO tab draws the charts and deals; the Merchant tab explains its per-merchant averages', async ({
    page,
  }) => {
    await expect(page.getByRole('img', { name: 'Volume and chargebacks' })).toBeVisible();
    await expect(page.getByRole('img', { name: /^Volume by (month|day)$/ })).toBeVisible();
    await expect(page.getByTestId('deals-total')).toHaveText(/^\d[\d,]*$/);
    await expect(page.getByRole('table', { name: 'Deals by age' })).toContainText('> 3 y');

    await page.getByRole('button', { name: 'Income details' }).click();
    await expect(page.getByRole('table', { name: 'Income details' })).toContainText('Expenses');
    await expect(page.getByRole('table', { name: 'Income details' })).toContainText('Payouts');
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Merchant' }).click();
    await expect(page.getByRole('region', { name: 'Volume', exact: true })).toContainText(/per merchant/i);
    await expect(page.getByRole('img', { name: 'Volume and chargebacks' })).toHaveCount(0);
    const help = page.getByRole('button', { name: /volume divided by the most merchants/i });
    await help.hover();
    await expect(page.getByRole('tooltip')).toContainText('divided by the most merchants');

    await page.getByRole('tab', { name: 'ISO' }).click();
    await expect(page.getByTestId('deals-total')).toBeVisible();
  });

  test('a month older than the kept days shows its monthly total with a note; a kept month shows its days', async ({
    page,
  }) => {
    const f = filters(page);
    const list = page.getByRole('navigation', { name: 'ISOs' });
    await list.getByRole('button', { name: 'Summit Payment Group', exact: true }).click();
    await expect(page.getByTestId('iso-title')).toHaveText('Summit Payment Group');
    const firstKept = firstDailyDay(new Date());
    const choose = async (month: string) => {
      // Choosing the year already chosen would clear it.
      if ((await f.year.inputValue()) !== month.slice(0, 4)) await pick(page, f.year, month.slice(0, 4));
      const asked = page.waitForResponse(
        (r) => r.url().endsWith('/api/exec/iso/GetTransactions') && r.request().postDataJSON().date === month,
      );
      await pick(page, f.month, MONTH_NAMES[Number(month.slice(5, 7)) - 1] as string);
      return asked;
    };

    // The month just before the kept days: asked by month, one point, its real figures.
    const old = addMonths(firstKept, -1);
    const answer = await choose(old);
    expect(answer.request().postDataJSON()).toMatchObject({ date: old, monthly: true });
    expect(answer.status()).toBe(200);
    const [total] = (await answer.json()) as { txn_volume: number }[];
    expect(total?.txn_volume).toBeGreaterThan(0);
    await expect(page.getByTestId('exec-period')).toHaveText(/the month’s total/);
    await expect(page.getByTestId('exec-volume')).not.toHaveText('$0.00');
    await expect(page.getByTestId('exec-transactions')).not.toHaveText('0');
    await expect(page.getByRole('img', { name: 'Volume by month' })).toBeVisible();
    await expect(page.getByTestId('chart-note')).toHaveText(
      'Daily figures are kept for the last 13 months; this month shows its total.',
    );

    // The first kept month: by day, no note.
    const kept = await choose(firstKept);
    expect(kept.request().postDataJSON()).toMatchObject({ date: firstKept, monthly: false });
    await expect(page.getByTestId('exec-period')).toHaveText(/by day/);
    await expect(page.getByRole('img', { name: 'Volume by day' })).toBeVisible();
    await expect(page.getByTestId('chart-note')).toHaveCount(0);
  });

  test('the MCC list shows six codes, then all after Show more', async ({ page }) => {
    const rows = page.getByTestId('mcc-row');
    await expect(rows).toHaveCount(6);
    const more = page.getByRole('button', { name: /^Show more \((\d+)\)$/ });
    const extra = Number(/\((\d+)\)/.exec(await more.innerText())?.[1]);
    await more.click();
    await expect(rows).toHaveCount(6 + extra);
    await page.getByRole('button', { name: 'Show less' }).click();
    await expect(rows).toHaveCount(6);
  });
});

test.describe('Business Intelligence, without the capability', () => {
  test.use({ storageState: sessionOf('sales@paydesk.local') });

  test('has no menu entry, shows the no-access page and the server refuses its calls', async ({ page }) => {
    await page.goto('/sales');
    await expect(menu(page).getByRole('link', { name: 'Sales', exact: true })).toBeVisible();
    await expect(menu(page).getByRole('link', { name: 'Business Intelligence' })).toHaveCount(0);
    await page.goto('/bi');
    await expect(page.getByText("You don't have access to this page")).toBeVisible();
    expect((await page.request.get('/api/exec/iso/GetAllInformation')).status()).toBe(403);
    expect((await page.request.post('/api/exec/iso/GetMCC', { data: { groupIDs: ['1'] } })).status()).toBe(
      403,
    );
  });
});

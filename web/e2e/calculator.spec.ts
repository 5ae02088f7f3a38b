import { expect, type Page, test } from '@playwright/test';
import { sessionOf } from './support';

/** Worked example 1 of docs/calculator.md: the merchant's month as typed. */
const EXAMPLE_1: ReadonlyArray<[label: string, text: string]> = [
  ['Gross volume', '100,000'],
  ['Discount income', '250'],
  ['Other expense', '40'],
  ['Interchange income', '1800'],
  ['Interchange expense', '1780'],
  ['Card brand income', '150'],
  ['Card brand expense', '130'],
  ['Authorizations', '1200'],
  ['PIN debit transactions', '100'],
  ['Batches', '30'],
  ['AVS checks', '200'],
  ['Chargebacks', '2'],
  ['Chargeback income', '30'],
];

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label, exact: true });

async function expectTotals(page: Page, monthly: string[], yearly: string[]) {
  const keys = ['total', 'iso', 'house'];
  for (const [i, key] of keys.entries()) {
    await expect(page.getByTestId(`monthly-${key}`)).toHaveText(monthly[i] ?? '');
    await expect(page.getByTestId(`yearly-${key}`)).toHaveText(yearly[i] ?? '');
  }
}

test.describe('Sales calculator', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });
  test.beforeEach(async ({ page }) => {
    await page.goto('/sales');
    await page.getByRole('navigation').getByRole('link', { name: 'Sales Calculator' }).click();
    await expect(page).toHaveURL(/\/salescalculator$/);
  });

  test('opens on the defaults: PayLo on CBCAL, not liable, no next-day funding (worked example 3)', async ({
    page,
  }) => {
    await expectTotals(page, ['-9.87', '-8.39', '-1.48'], ['-118.44', '-100.68', '-17.76']);
    // No merchant figures yet: a prompt, not a headline of the fees alone.
    await expect(page.getByTestId('calculator-prompt')).toContainText(
      'Enter the merchant’s volume and income under Merchant Details',
    );
    await expect(page.getByTestId('share-monthly')).toHaveCount(0);
    await expect(field(page, 'ISO split (ISC)')).toHaveValue('80');
    await expect(field(page, 'V/MC/Discover interchange')).toHaveValue('Pass-Thru');
    for (const fixed of [
      'V/MC/Discover interchange',
      'Micros fee',
      'Program, merchant',
      'Program, ISO',
      'Non-compliance, merchant',
      'Non-compliance, ISO',
      'Next-day funding',
    ])
      await expect(field(page, fixed), fixed).toBeDisabled();
    await expect(field(page, 'Micros fee')).toHaveValue('0.065');
    await expect(field(page, 'Non-compliance, merchant')).toHaveValue('29.95');
    await expect(field(page, 'Non-compliance, ISO')).toHaveValue('14.95');
    await expect(page.getByRole('tab', { name: 'TSYS' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'First Data' })).toBeDisabled();
    await expect(page.getByRole('tab', { name: 'PPS' })).toBeDisabled();
    await expect(page.getByRole('radio', { name: 'HIGHRISK' })).toBeDisabled();
  });

  test('prices worked example 1 and switches between the ISO and PayDesk views', async ({ page }) => {
    await page.getByRole('radio', { name: 'TRADITIONAL' }).check();
    await page.getByText('Next Day Funding', { exact: true }).click();
    for (const [label, text] of EXAMPLE_1) await field(page, label).fill(text);

    await expectTotals(page, ['178.73', '143.99', '34.74'], ['2,144.76', '1,727.88', '416.88']);
    await expect(page.getByTestId('term-net')).toHaveText('173.73');
    await expect(page.getByTestId('share-monthly')).toHaveText('$143.99');
    await expect(page.getByTestId('share-yearly')).toHaveText('$1,727.88');

    await page.getByRole('radio', { name: 'PayDesk (the remainder)' }).check();
    await expect(page.getByTestId('share-monthly')).toHaveText('$34.74');
    await expect(page.getByTestId('share-yearly')).toHaveText('$416.88');

    // Unreadable text is named at its field and counts as 0; the totals carry on.
    await field(page, 'Discount income').fill('25o');
    await expect(page.getByText('Enter a number, e.g. 1250.50')).toBeVisible();
    await expect(page.getByTestId('calculator-errors')).toBeVisible();
    await expect(page.getByTestId('monthly-total')).toHaveText('-71.27');
    await field(page, 'Discount income').fill('250');
    await expect(page.getByTestId('monthly-total')).toHaveText('178.73');
    await expect(page.getByTestId('calculator-errors')).toHaveCount(0);

    // The ISC split takes no decimals, the micros fee three (fixed), the rest two.
    await field(page, 'ISO split (ISC)').fill('80.5');
    await expect(page.getByText('Enter a whole number')).toBeVisible();
    await field(page, 'ISO split (ISC)').fill('80');
    await field(page, 'Authorization (ACS)').fill('0.045');
    await expect(page.getByText('Use at most 2 decimals')).toBeVisible();
    await field(page, 'Authorization (ACS)').fill('0.04');
    await expect(page.getByTestId('monthly-total')).toHaveText('178.73');

    // A negative figure is refused with the reason.
    await field(page, 'Other expense').fill('-40');
    await expect(page.getByText('Enter it as a positive amount')).toBeVisible();
    await field(page, 'Other expense').fill('40');
    await expect(page.getByTestId('monthly-total')).toHaveText('178.73');
  });

  test('an empty calculator fills in worked example 1 on request', async ({ page }) => {
    await page.getByRole('button', { name: 'Fill in worked example 1' }).click();
    await expectTotals(page, ['178.73', '143.99', '34.74'], ['2,144.76', '1,727.88', '416.88']);
    await expect(page.getByTestId('share-monthly')).toHaveText('$143.99');
    await expect(field(page, 'Gross volume')).toHaveValue('100,000');
    await expect(page.getByTestId('calculator-prompt')).toHaveCount(0);
  });

  test('bank sets next-day funding, profile the program fees; toggles reveal and enable their terms', async ({
    page,
  }) => {
    const ndf = field(page, 'Next-day funding');
    await expect(ndf).toHaveValue('5.00');
    await page.getByRole('radio', { name: 'ESQUIRE' }).check();
    await expect(ndf).toHaveValue('2.0');
    await page.getByRole('radio', { name: 'CBCAL' }).check();
    await expect(ndf).toHaveValue('5.00');

    await expect(field(page, 'Program, merchant')).toHaveValue('0.00');
    await expect(field(page, 'Program, ISO')).toHaveValue('2.50');
    await page.getByRole('radio', { name: 'TRADITIONAL' }).check();
    await expect(field(page, 'Program, merchant')).toHaveValue('6.00');
    await expect(field(page, 'Program, ISO')).toHaveValue('6.00');
    // Base 6 − 6 = 0 instead of −2.50: the defaults' total moves by 2.50.
    await expect(page.getByTestId('monthly-total')).toHaveText('-7.37');
    await page.getByRole('radio', { name: 'PAYLO' }).check();
    await expect(page.getByTestId('monthly-total')).toHaveText('-9.87');

    // Next-day funding: $5.00 flat on CBCAL once switched on.
    await page.getByText('Next Day Funding', { exact: true }).click();
    await expect(page.getByTestId('monthly-total')).toHaveText('-4.87');
    await page.getByText('No Next Day Funding', { exact: true }).click();
    await expect(page.getByTestId('monthly-total')).toHaveText('-9.87');

    // Liable reveals the four per-item fees; the liability basis points then no longer apply.
    const fees = [
      'Chargeback liability',
      'ACH reject liability',
      'Retrieval liability',
      'Reversal liability',
    ];
    for (const fee of fees) await expect(field(page, fee)).toBeHidden();
    await expect(field(page, 'Liability')).toBeEnabled();
    await page.getByText('Liable', { exact: true }).click();
    for (const fee of fees) await expect(field(page, fee)).toHaveValue('25.00');
    await expect(field(page, 'Liability')).toBeDisabled();
    await field(page, 'Chargebacks').fill('2');
    await expect(page.getByTestId('monthly-total')).toHaveText('-59.87');
    await page.getByText('Not Liable', { exact: true }).click();
    for (const fee of fees) await expect(field(page, fee)).toBeHidden();
    await expect(page.getByTestId('monthly-total')).toHaveText('-9.87');

    // The other processors' terms are shown read-only.
    await page.getByRole('button', { name: 'Show First Data and PPS terms' }).click();
    await expect(
      page.getByRole('region', { name: 'Processor' }).getByText('Buypass statement'),
    ).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Processor' }).getByText('Missing originals, per day'),
    ).toBeVisible();
  });

  test('Merchant Details folds away and opens again', async ({ page }) => {
    const toggle = page.getByRole('button', { name: /Merchant Details/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(field(page, 'Gross volume')).toBeVisible();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(field(page, 'Gross volume')).toBeHidden();
    await toggle.click();
    await expect(field(page, 'Gross volume')).toBeVisible();
  });
});

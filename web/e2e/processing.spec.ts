import {
  type BudgetsAnswer,
  formatVolume,
  monthLabel,
  PROCESSING_FIRST_YEAR,
  type ProcessingInfo,
  processingDt,
  reportQuarters,
  type SubscriptionRow,
} from '@paydesk/domain';
import { expect, type Page, test } from '@playwright/test';
import { sessionOf, todayClearOfMidnight } from './support';

/**
 * The processing dashboard (/processing) and How to Export (/export). The figures on screen are checked against
 * the server's own answer for the same year, read here through the API with the same session.
 */

// This year, read as the file starts, clear of a midnight (support.ts); the tests' other dates are read in them.
let CURRENT = 0;
test.beforeAll(async () => {
  CURRENT = Number((await todayClearOfMidnight()).slice(0, 4));
});
const CARDS = ['card-daily', 'card-bank', 'card-average', 'card-profile', 'card-activations'];
const money = (v: number) => (v < 0 ? `-$${formatVolume(-v)}` : `$${formatVolume(v)}`);

async function processingInfo(page: Page, year: number): Promise<ProcessingInfo> {
  const res = await page.request.post('/api/processinginfo', { data: processingDt(year) });
  expect(res.status()).toBe(200);
  return (await res.json()) as ProcessingInfo;
}

/**
 * Every chart card has drawn its chart (ECharts paints a canvas inside the labelled image), except the daily one
 * over a month with no day of figures yet (its first day, before any deposit), which says so instead.
 */
async function expectCharts(page: Page, info: ProcessingInfo) {
  for (const id of CARDS) {
    const card = page.getByTestId(id);
    if (id === 'card-daily' && info.daily.length === 0) {
      await expect(card.getByTestId('chart-empty')).toContainText(monthLabel(info.headline.month));
      await expect(card.getByRole('img')).toHaveCount(0);
      continue;
    }
    await expect(card.getByRole('img')).toBeVisible();
    await expect(card.locator('canvas').first()).toBeVisible();
  }
}

async function expectHeadline(page: Page, info: ProcessingInfo) {
  const h = info.headline;
  await expect(page.getByTestId('headline-mtd')).toHaveText(money(h.monthToDate));
  // A month that is over shows its daily average instead of a projection (its trend is its volume).
  if (h.basis === 'complete') {
    await expect(page.getByTestId('headline-average')).toHaveText(money(h.averageDaily));
    await expect(page.getByTestId('headline-trending')).toHaveCount(0);
  } else await expect(page.getByTestId('headline-trending')).toHaveText(money(h.trending));
  await expect(page.getByTestId('headline-budget')).toHaveText(money(h.budget));
  await expect(page.getByTestId('headline-percent')).toHaveText(
    h.budgetPercent === null ? '—' : `${h.budgetPercent.toLocaleString('en-US')}%`,
  );
}

const yearBox = (page: Page) => page.getByRole('combobox', { name: 'Year' });

test.describe('the dashboard as finance', () => {
  test.use({ storageState: sessionOf('finance@paydesk.local') });

  test('opens on the current year, live, with the headline of the server and all five charts', async ({
    page,
  }) => {
    const info = await processingInfo(page, CURRENT);
    await page.goto('/processing');
    await expect(page.getByRole('heading', { name: 'Processing', level: 1 })).toBeVisible();
    await expect(page.getByTestId('live-badge')).toBeVisible();
    await expect(yearBox(page)).toHaveValue(String(CURRENT));
    await expect(page.getByRole('button', { name: 'Next year' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Previous year' })).toBeEnabled();
    await expectHeadline(page, info);
    await expectCharts(page, info);
    // The daily chart runs over the dashboard month with the budget line beside the volume.
    if (info.daily.length > 0)
      await expect(page.getByTestId('card-daily').getByRole('img')).toHaveAttribute(
        'aria-label',
        /^Daily volume: Volume .*; Budget 1 \$/,
      );
    // Finance (not finance_admin) reads budgets but does not edit them.
    await expect(page.getByRole('button', { name: 'Edit budgets' })).toHaveCount(0);
  });

  test('goes back a year to historic figures, kept in the URL, and stops at 2020 and at this year', async ({
    page,
  }) => {
    await page.goto('/processing');
    await expect(page.getByTestId('live-badge')).toBeVisible();
    const asked = page.waitForRequest(
      (r) => r.url().endsWith('/api/processinginfo') && r.postDataJSON()?.historic === true,
    );
    await page.getByRole('button', { name: 'Previous year' }).click();
    expect((await asked).postDataJSON()).toEqual({ dt: `${CURRENT - 1}-12-31`, historic: true });
    await expect(page).toHaveURL(new RegExp(`[?&]yr=${CURRENT - 1}`));
    await expect(page.getByTestId('historic-badge')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next year' })).toBeEnabled();
    const historic = await processingInfo(page, CURRENT - 1);
    await expectHeadline(page, historic);
    await expectCharts(page, historic);

    // A reload shows the same year; Next year goes back to the live one and the year leaves the address.
    await page.reload();
    await expect(yearBox(page)).toHaveValue(String(CURRENT - 1));
    await page.getByRole('button', { name: 'Next year' }).click();
    await expect(page).not.toHaveURL(/yr=/);
    await expect(page.getByTestId('live-badge')).toBeVisible();

    // The floor: 2020 cannot go further back, and an earlier year in the address is read as 2020.
    await page.goto(`/processing?yr=${PROCESSING_FIRST_YEAR - 1}`);
    await expect(yearBox(page)).toHaveValue(String(PROCESSING_FIRST_YEAR));
    await expect(page.getByRole('button', { name: 'Previous year' })).toBeDisabled();
    await expect(page.getByTestId('historic-badge')).toBeVisible();
    await page.getByRole('button', { name: 'Next year' }).click();
    await expect(yearBox(page)).toHaveValue(String(PROCESSING_FIRST_YEAR + 1));
    // A year after this one in the address is read as this year.
    await page.goto(`/processing?yr=${CURRENT + 3}`);
    await expect(yearBox(page)).toHaveValue(String(CURRENT));
    await expect(page.getByRole('button', { name: 'Next year' })).toBeDisabled();
  });

  test('the year list offers 2020 to this year only', async ({ page }) => {
    await page.goto('/processing');
    await yearBox(page).click();
    const options = (await page.getByRole('option').allInnerTexts()).map((o) => o.trim());
    const expected = Array.from({ length: CURRENT - PROCESSING_FIRST_YEAR + 1 }, (_, i) =>
      String(CURRENT - i),
    );
    expect(options).toEqual(expected);
    await page.getByRole('option', { name: String(PROCESSING_FIRST_YEAR + 2) }).click();
    await expect(page).toHaveURL(new RegExp(`yr=${PROCESSING_FIRST_YEAR + 2}`));
    await expect(page.getByTestId('historic-badge')).toBeVisible();
  });
});

test.describe('budgets as finance_admin', () => {
  test.use({ storageState: sessionOf('finance.admin@paydesk.local') });

  test('edits this month’s budget of a bank; the headline follows; the change is put back', async ({
    page,
  }) => {
    const month = `${new Date().toISOString().slice(0, 7)}-01`;
    const before = (await (
      await page.request.get(`/api/app/processing/budgets?year=${CURRENT}`)
    ).json()) as BudgetsAnswer;
    expect(before.canEdit).toBe(true);
    const bank = before.banks[0] ?? '';
    expect(bank).not.toBe('');
    const old = before.rows.find((r) => r.bank === bank && r.mth === month)?.budget ?? 0;
    const raised = Math.round(old) + 1_000_000;
    const monthName = monthLabel(month);

    const setBudget = async (amount: number, saved: string) => {
      await page.getByRole('button', { name: 'Edit budgets' }).click();
      const modal = page.getByRole('dialog', { name: 'Processing budgets' });
      const cell = modal.getByRole('textbox', { name: `${bank} ${monthName}` });
      await expect(cell).toBeVisible();
      await cell.fill(String(amount));
      await expect(modal.getByTestId('budget-changes')).toHaveText('1 change to save');
      await modal.getByRole('button', { name: 'Save budgets' }).click();
      await expect(page.getByText(saved)).toBeVisible();
      await expect(modal).toBeHidden();
    };

    await page.goto('/processing');
    await expect(page.getByTestId('headline-budget')).toBeVisible();
    await setBudget(raised, '1 budget saved.');
    const after = (await (
      await page.request.get(`/api/app/processing/budgets?year=${CURRENT}`)
    ).json()) as BudgetsAnswer;
    expect(after.rows.find((r) => r.bank === bank && r.mth === month)?.budget).toBe(raised);
    // The headline's budget is the month's budget of all banks: it reads the new total.
    const total = after.rows.filter((r) => r.mth === month).reduce((sum, r) => sum + r.budget, 0);
    await expect(page.getByTestId('headline-budget')).toHaveText(money(total));

    // The first save's notice closes by itself before the second save's is looked for.
    await expect(page.getByText('1 budget saved.')).toHaveCount(0);
    await setBudget(old, '1 budget saved.');
    const restored = (await (
      await page.request.get(`/api/app/processing/budgets?year=${CURRENT}`)
    ).json()) as BudgetsAnswer;
    expect(restored.rows.find((r) => r.bank === bank && r.mth === month)?.budget ?? 0).toBe(old);
  });
});

test.describe('budgets as sales', () => {
  test.use({ storageState: sessionOf('sales@paydesk.local') });

  test('sees the dashboard without the budget control; the server refuses a budget change', async ({
    page,
  }) => {
    await page.goto('/processing');
    await expect(page.getByTestId('headline-budget')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit budgets' })).toHaveCount(0);
    const res = await page.request.post('/api/app/processing/budget', {
      data: { bank: 'CBCAL', mth: `${CURRENT}-01-01`, budget: 1 },
    });
    expect(res.status()).toBe(403);
  });
});

test.describe('How to Export as admin', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test('seven quarter buttons, each asked once per visit; the job runs and the mail lands in the outbox', async ({
    page,
  }) => {
    const quarters = reportQuarters(new Date());
    expect(quarters).toHaveLength(7);
    await page.goto('/export');
    await expect(page.getByRole('heading', { name: 'How to Export', level: 1 })).toBeVisible();
    const buttons = page.getByRole('button', { name: /^E-mail the report for / });
    await expect(buttons).toHaveCount(7);
    for (const [i, q] of quarters.entries()) {
      const button = buttons.nth(i);
      await expect(button).toContainText(`${q.yr} Q${q.qr}`);
      await expect(button).toBeEnabled();
    }

    const first = quarters[0] as (typeof quarters)[number];
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/email'));
    await buttons.first().click();
    const response = await answered;
    expect(response.request().postDataJSON()).toEqual({
      rec: 'admin@paydesk.local',
      yr: first.yr,
      qr: first.qr,
    });
    expect(response.status()).toBe(200);
    const { jobId } = (await response.json()) as { jobId: string };
    await expect(buttons.first()).toBeDisabled();
    await expect(buttons.first()).toContainText('arrives by e-mail');
    // The others stay available; no result or confirmation is shown (spec document 2 §2.3).
    await expect(buttons.nth(1)).toBeEnabled();
    await expect(page.getByRole('alert')).toHaveCount(0);

    // The request is a job of the Jobs screen, and it ends with an e-mail to the admin with two attachments.
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/app/jobs/status?id=${jobId}`);
          return ((await res.json()) as { state: string }).state;
        },
        { timeout: 60_000, intervals: [1000] },
      )
      .toBe('completed');
    await page.goto('/jobs?f.name=processing.report');
    await expect(page.getByRole('table', { name: 'Jobs', exact: true })).toContainText(
      'E-mail a processing report',
    );

    // The Outbox shows the mail with its workbook and PDF to download.
    await page.goto('/outbox');
    await page
      .getByRole('button', { name: `Open e-mail to admin@paydesk.local: Processing report ${first.label}` })
      .first()
      .click();
    const attachments = page.getByRole('dialog').getByRole('list', { name: 'Attachments' });
    await expect(attachments.getByRole('listitem')).toHaveCount(2);
    const pdf = attachments.getByRole('link', { name: /\.pdf$/ });
    const xlsx = attachments.getByRole('link', { name: /\.xlsx$/ });
    await expect(xlsx).toBeVisible();
    const download = await page.request.get((await pdf.getAttribute('href')) as string);
    expect(download.status()).toBe(200);
    expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // A new visit of the page offers every report again.
    await page.goto('/export');
    await expect(page.getByRole('button', { name: /^E-mail the report for / }).first()).toBeEnabled();
  });
});

test.describe('scheduled reports', () => {
  test.use({ storageState: sessionOf('finance@paydesk.local') });

  test('subscribes monthly and quarterly, lists both, cancels them', async ({ page }) => {
    const mine = async () =>
      (await (await page.request.get('/api/app/processing/subscriptions')).json()) as SubscriptionRow[];
    expect(await mine()).toEqual([]);
    await page.goto('/export');
    const section = page.getByRole('region', { name: 'Scheduled reports' });
    await expect(section.getByTestId('subscriptions-empty')).toHaveText('You have no scheduled reports.');

    await section.getByText('Monthly', { exact: true }).click();
    await section.getByRole('button', { name: 'Subscribe' }).click();
    const table = section.getByRole('table', { name: 'Your scheduled reports' });
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table).toContainText('Monthly');
    await expect(table).toContainText('Not yet');
    // The same frequency cannot be taken twice.
    await expect(section.getByRole('button', { name: 'Subscribe' })).toBeDisabled();

    await section.getByText('Quarterly', { exact: true }).click();
    await section.getByRole('button', { name: 'Subscribe' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(2);
    expect((await mine()).map((s) => s.frequency).sort()).toEqual(['monthly', 'quarterly']);

    await section.getByRole('button', { name: 'Cancel the monthly report' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await section.getByRole('button', { name: 'Cancel the quarterly report' }).click();
    await expect(section.getByTestId('subscriptions-empty')).toBeVisible();
    expect(await mine()).toEqual([]);
  });
});

test.describe('partner staff', () => {
  test.use({ storageState: sessionOf('partner@summitpayments.example') });

  test('see their ISO’s dashboard without budgets, and ask for their ISO’s report', async ({ page }) => {
    await page.goto('/processing');
    await expect(page.getByText(/^Volume of .+’s merchants\./)).toBeVisible();
    await expectCharts(page, await processingInfo(page, CURRENT));
    await expect(page.getByTestId('headline-mtd')).toBeVisible();
    // Budgets are the processor's targets for all ISOs: partner staff see neither them nor their control.
    await expect(page.getByTestId('headline-budget')).toHaveCount(0);
    await expect(page.getByTestId('headline-percent')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit budgets' })).toHaveCount(0);
    await page.goto('/export');
    await expect(page.getByTestId('report-recipient')).toContainText(
      'partner@summitpayments.example, with the figures of Summit Payment Group’s merchants only',
    );
    const buttons = page.getByRole('button', { name: /^E-mail the report for / });
    await expect(buttons).toHaveCount(7);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/email'));
    await buttons.nth(1).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(response.request().postDataJSON()).toMatchObject({ rec: 'partner@summitpayments.example' });
    await expect(buttons.nth(1)).toBeDisabled();
  });
});

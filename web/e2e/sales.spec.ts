import {
  addMonths,
  type GoalRow,
  goalProgress,
  type HolidayRow,
  monthLabel,
  type PartnerMerchantRow,
  type PartnerRow,
  type PendingRow,
  salesPaths,
} from '@paydesk/domain';
import { expect, type Locator, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { sessionOf, todayClearOfMidnight } from './support';

// Read as the file starts, clear of a midnight (support.ts).
let today = '';
let current = '';
let monthsSince2019 = 0;
test.beforeAll(async () => {
  today = await todayClearOfMidnight();
  current = `${today.slice(0, 7)}-01`;
  monthsSince2019 = (Number(current.slice(0, 4)) - 2019) * 12 + Number(current.slice(5, 7)) - 1;
});

async function api<T>(page: Page, path: string, body: unknown = {}): Promise<T> {
  const res = await page.request.post(path, { data: body });
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const num = (text: string) => Number(text.replaceAll(',', '').replace('%', ''));

async function workbook(path: string) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  return wb;
}

async function exportModal(page: Page, dialog: Locator) {
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export to XLSX' }).click();
  const file = await download;
  const path = await file.path();
  return { name: file.suggestedFilename(), book: await workbook(path) };
}

test.describe('Sales dashboard', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });
  test.beforeEach(async ({ page }) => {
    await page.goto('/sales');
  });

  test('month navigation stops at January 2019 and at the current month; live cards only this month', async ({
    page,
  }) => {
    await expect(page.getByTestId('live-badge')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Month' })).toHaveValue(monthLabel(current));
    await expect(page.getByRole('button', { name: 'Next month' })).toBeDisabled();
    for (const live of ['Today', 'Yesterday', 'Pending over 45 days'])
      await expect(card(page, live)).toBeVisible();

    await page.getByRole('button', { name: 'Previous month' }).click();
    await expect(page).toHaveURL(/[?&]cntr=-1(&|$)/);
    await expect(page.getByRole('combobox', { name: 'Month' })).toHaveValue(
      monthLabel(addMonths(current, -1)),
    );
    await expect(page.getByTestId('summary-badge')).toBeVisible();
    for (const live of ['Today', 'Yesterday', 'Pending over 45 days'])
      await expect(card(page, live)).toHaveCount(0);
    await expect(card(page, 'Goal progress')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next month' })).toBeEnabled();

    // The picker goes straight to the earliest month.
    await page.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: 'January 2019', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]cntr=-${monthsSince2019}(&|$)`));
    await expect(page.getByRole('button', { name: 'Previous month' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Next month' })).toBeEnabled();

    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page.getByRole('combobox', { name: 'Month' })).toHaveValue('February 2019');

    // Offsets outside the range are pulled back to its ends.
    await page.goto('/sales?cntr=-9999');
    await expect(page.getByRole('combobox', { name: 'Month' })).toHaveValue('January 2019');
    await page.goto('/sales?cntr=4');
    await expect(page.getByRole('combobox', { name: 'Month' })).toHaveValue(monthLabel(current));
    await expect(page.getByTestId('live-badge')).toBeVisible();
  });

  test('the cards show what the API answers', async ({ page }) => {
    const [approvedMTD] = await api<[{ Approved: number; CBCAL: number; Esquire: number }]>(
      page,
      salesPaths.approvedMTD,
      { cntr: 0 },
    );
    const [submittedMTD] = await api<[{ Submitted: number }]>(page, salesPaths.submittedMTD, { cntr: 0 });
    const [closedMTD] = await api<[{ Closed: number }]>(page, salesPaths.closedMTD, { cntr: 0 });
    const [approvedToday] = await api<[{ Approved: number }]>(page, salesPaths.approvedTodayByProfile);
    const [submittedToday] = await api<[{ Submitted: number }]>(page, salesPaths.submittedTodayByProfile);
    const pending = await api<PendingRow[]>(page, salesPaths.pending45days);
    const goals = await api<GoalRow[]>(page, salesPaths.salesYTDgoals, { dt: current });
    const holidays = await api<HolidayRow[]>(page, salesPaths.holiday, { dt: current });
    if (!approvedMTD || !submittedMTD || !closedMTD || !approvedToday || !submittedToday)
      throw new Error('empty answer');
    const goal = Number(goals.find((g) => `${g.Month}-01` === current)?.goal ?? 0);
    const progress = goalProgress(
      current,
      today,
      goal,
      approvedMTD.Approved,
      new Set(holidays.map((h) => h.holiday)),
    );

    await expect(page.getByTestId('goal-approved')).toHaveText(approvedMTD.Approved.toLocaleString('en-US'));
    await expect(page.getByTestId('goal-full')).toHaveText(goal.toLocaleString('en-US'));
    await expect(page.getByTestId('goal-prorated')).toHaveText(progress.proratedGoal.toLocaleString('en-US'));
    expect(num(await page.getByTestId('goal-percent').innerText())).toBe(progress.percent);

    await expect(page.getByTestId('month-submitted')).toHaveText(
      submittedMTD.Submitted.toLocaleString('en-US'),
    );
    await expect(page.getByTestId('month-approved')).toHaveText(approvedMTD.Approved.toLocaleString('en-US'));
    await expect(page.getByTestId('month-closed')).toHaveText(closedMTD.Closed.toLocaleString('en-US'));
    await expect(page.getByTestId('card-today-submitted')).toHaveText(String(submittedToday.Submitted));
    await expect(page.getByTestId('card-today-approved')).toHaveText(String(approvedToday.Approved));
    await expect(page.getByTestId('pending-total')).toHaveText(
      String(pending.reduce((n, r) => n + r.lvlCount, 0)),
    );
    await expect(page.getByTestId('card-platform-CBCAL')).toContainText(String(approvedMTD.CBCAL));
    await expect(page.getByTestId('card-platform-Esquire')).toContainText(String(approvedMTD.Esquire));
  });

  test('the partner table cycles through approvals, closures and today; in-house toggles', async ({
    page,
  }) => {
    const monthName = monthLabel(current);
    const approved = await api<PartnerRow[]>(page, salesPaths.approvedMTDPartner, { cntr: 0 });
    const closed = await api<PartnerRow[]>(page, salesPaths.closedMTDPartner, { cntr: 0 });
    const todays = await api<PartnerRow[]>(page, salesPaths.submittedApprovedTodayPartner);
    const partners = card(page, 'Partners');
    const view = page.getByTestId('card-partners-view');
    const rows = partners.locator('tbody tr');
    const next = partners.getByRole('button', { name: /^Show / });

    await expect(view).toHaveText(`Approvals in ${monthName}`);
    await expect(rows).toHaveCount(approved.length);
    await next.click();
    await expect(view).toHaveText(`Closures in ${monthName}`);
    await expect(rows).toHaveCount(closed.length);
    await next.click();
    await expect(view).toHaveText('Submitted and approved today');
    await expect(rows).toHaveCount(todays.length);
    await next.click();
    await expect(view).toHaveText(`Approvals in ${monthName}`);

    // A past month has no "today": closures lead back to approvals.
    await page.getByRole('button', { name: 'Previous month' }).click();
    const lastMonth = monthLabel(addMonths(current, -1));
    await expect(view).toHaveText(`Approvals in ${lastMonth}`);
    await next.click();
    await expect(view).toHaveText(`Closures in ${lastMonth}`);
    await next.click();
    await expect(view).toHaveText(`Approvals in ${lastMonth}`);
    await expect(card(page, 'In-house partners').getByRole('button', { name: /^Show / })).toHaveCount(0);

    await page.getByRole('button', { name: 'Next month' }).click();
    const inHouseView = page.getByTestId('card-inhouse-view');
    const toggle = card(page, 'In-house partners').getByRole('button', { name: /^Show / });
    await expect(inHouseView).toHaveText(`Approvals in ${monthName}`);
    await toggle.click();
    await expect(inHouseView).toHaveText('Submitted and approved today');
    await toggle.click();
    await expect(inHouseView).toHaveText(`Approvals in ${monthName}`);
  });

  test('a card’s detail modal lists its rows and exports them as a workbook', async ({ page }) => {
    const [approvedMTD] = await api<[{ Approved: number }]>(page, salesPaths.approvedMTD, { cntr: 0 });
    await card(page, 'Goal progress')
      .getByRole('button', { name: 'Download details: Goal progress' })
      .click();
    const dialog = page.getByRole('dialog', { name: `Goal progress, ${monthLabel(current)}` });
    const approvals = dialog.getByRole('table', { name: `Approvals in ${monthLabel(current)}` });
    await expect(approvals.locator('tbody tr')).toHaveCount(approvedMTD?.Approved ?? -1);
    await expect(dialog.getByRole('table', { name: 'Goal progress' }).locator('tbody tr')).toHaveCount(1);

    const { name, book } = await exportModal(page, dialog);
    expect(name).toMatch(/^Dashboard \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\.xlsx$/);
    expect(book.worksheets.map((s) => s.name)).toEqual(['Sheet 0', 'Sheet 1']);
    expect(book.getWorksheet('Sheet 0')?.rowCount).toBe(2);
    expect(book.getWorksheet('Sheet 1')?.rowCount).toBe((approvedMTD?.Approved ?? 0) + 1);
    expect(book.getWorksheet('Sheet 1')?.getRow(1).values).toEqual([
      undefined,
      'Application',
      'MID',
      'DBA',
      'Sponsor bank',
      'Profile',
      'ISO',
      'Approved',
    ]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();

    // The platform card: one row per platform.
    await page.getByRole('button', { name: 'Download details: Approvals by platform' }).click();
    const platforms = page.getByRole('dialog', { name: /^Approvals by platform/ });
    await expect(platforms.locator('tbody tr')).toHaveCount(5);
    const exported = await exportModal(page, platforms);
    expect(exported.book.worksheets.map((s) => s.name)).toEqual(['Sheet 0']);
    expect(exported.book.getWorksheet('Sheet 0')?.rowCount).toBe(6);
  });

  test('clicking a partner row lists its merchants', async ({ page }) => {
    const approved = await api<PartnerRow[]>(page, salesPaths.approvedMTDPartner, { cntr: 0 });
    const first = approved[0];
    test.skip(!first, 'No partner has an approval this month');
    if (!first) return;
    const merchants = await api<PartnerMerchantRow[]>(page, salesPaths.partnerMerchants, {
      iso: first.ISO,
      list: 'approved',
      cntr: 0,
    });
    await card(page, 'Partners')
      .getByRole('button', { name: `Merchants of ${first.ISO}`, exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: `${first.ISO}: merchants` });
    const table = dialog.getByRole('table');
    await expect(table.locator('tbody tr')).toHaveCount(merchants.length);
    expect((await table.locator('thead th').allInnerTexts()).map((t) => t.trim())).toEqual([
      'id',
      'MID',
      'DBA',
      'SponsorBank',
      'profile',
    ]);
    if (merchants[0]) await expect(table).toContainText(merchants[0].DBA);
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('partner@summitpayments.example') });
  test('an ISO-bound user sees only their ISO’s figures', async ({ page }) => {
    await page.goto('/sales');
    await expect(page.getByText('Figures for Summit Payment Group only.')).toBeVisible();
    const approved = await api<PartnerRow[]>(page, salesPaths.approvedMTDPartner, { cntr: 0 });
    expect(approved.every((row) => row.ISO === 'Summit Payment Group')).toBe(true);
    const rows = card(page, 'Partners').locator('tbody tr');
    await expect(rows).toHaveCount(approved.length);
    if (approved.length > 0) await expect(rows.first()).toContainText('Summit Payment Group');

    // The approval goals are the company's: a partner sees their approvals with no goal, and says why.
    const goals = await api<GoalRow[]>(page, salesPaths.salesYTDgoals, { dt: current });
    expect(goals.every((g) => g.goal === null)).toBe(true);
    const [mtd] = await api<[{ Approved: number }]>(page, salesPaths.approvedMTD, { cntr: 0 });
    await expect(card(page, 'Goal progress')).toHaveCount(0);
    await expect(page.getByTestId('goal-approved')).toHaveText((mtd?.Approved ?? 0).toLocaleString('en-US'));
    await expect(page.getByTestId('goal-none')).toContainText('none is set for your ISO');
    await expect(page.getByTestId('goal-percent')).toHaveCount(0);
    const year = card(page, `${current.slice(0, 4)} approvals`);
    await expect(year).toContainText('none is set for your ISO');
    await expect(year).not.toContainText('goal for the year');
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });
  test('a failed call leaves a quiet note on its cards and the rest of the dashboard works', async ({
    page,
  }) => {
    await page.route('**/api/approvedMTD', (route) =>
      route.fulfill({ status: 500, json: { message: 'boom' } }),
    );
    await page.goto('/sales?cntr=-1');
    await expect(card(page, 'Goal progress')).toContainText('These figures could not be loaded', {
      timeout: 20_000,
    });
    await expect(card(page, 'Approvals by platform')).toContainText('These figures could not be loaded');
    await expect(page.getByTestId('card-partners-view')).toBeVisible();
    await expect(card(page, 'Partners').locator('tbody tr').first()).toBeVisible();
  });
});

import {
  addMonths,
  type IsoPartnerStatusRow,
  lastDayOfMonth,
  monthLabel,
  salesPaths,
  type TablePage,
} from '@paydesk/domain';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { sessionOf, tableColumn, tableTotal, todayClearOfMidnight } from './support';

// Read as the file starts, clear of a midnight (support.ts).
let today = '';
let current = '';
test.beforeAll(async () => {
  today = await todayClearOfMidnight();
  current = `${today.slice(0, 7)}-01`;
});
const TABLE = 'ISO partners';

function statusBody(month: string) {
  const monthEnd = lastDayOfMonth(month);
  const end = today < monthEnd ? today : monthEnd;
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - 90 * 86_400_000).toISOString().slice(0, 10);
  return { this_month_start: month, this_month_end: monthEnd, last_90D_start: start, last_90D_end: end };
}

async function query(page: Page, body: Record<string, unknown>) {
  const res = await page.request.post(salesPaths.isoPartnersQuery, {
    data: { month: current, pageSize: 1000, ...body },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as TablePage<Record<string, unknown>>;
}

async function openFilter(page: Page, label: string) {
  await page.getByRole('button', { name: `Filter ${label}`, exact: true }).click();
  return page.getByRole('form', { name: `Filter ${label}` });
}

async function settled(page: Page) {
  await expect(page.getByRole('table', { name: TABLE, exact: true })).toHaveAttribute('aria-busy', 'false');
}

test.describe('ISO performance', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });
  test.beforeEach(async ({ page }) => {
    await page.goto('/sales');
    await page.getByRole('navigation').getByRole('link', { name: 'ISO Performance' }).click();
    await expect(page).toHaveURL(/\/isoperformance/);
    await settled(page);
  });

  test('the status summary counts the API’s statuses and each opens its list with an export', async ({
    page,
  }) => {
    const res = await page.request.post(salesPaths.isoPartnersStatus, { data: statusBody(current) });
    const rows = (await res.json()) as IsoPartnerStatusRow[];
    for (const status of ['Active', 'InActive', 'Dead'] as const) {
      await expect(page.getByTestId(`status-count-${status}`)).toHaveText(
        String(rows.filter((r) => r.iso_status === status).length),
      );
    }
    const active = rows.filter((r) => r.iso_status === 'Active');
    await page.getByRole('button', { name: 'Active partners', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Active partners, ${monthLabel(current)}` });
    await expect(dialog.locator('tbody tr')).toHaveCount(active.length);
    if (active[0]) await expect(dialog).toContainText(active[0].iso_name);
    await expect(dialog.locator('thead')).toContainText('Last approval');

    // A Dead partner's list shows the approval date the rule used, which is more than 90 days back.
    const dead = rows.find((r) => r.iso_status === 'Dead' && r.latest_approval_date !== null);
    if (dead?.latest_approval_date) {
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Dead partners', exact: true }).click();
      const deadDialog = page.getByRole('dialog', { name: `Dead partners, ${monthLabel(current)}` });
      await expect(deadDialog.locator('tr', { hasText: dead.iso_name })).toContainText(
        dead.latest_approval_date,
      );
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Active partners', exact: true }).click();
    }

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export to XLSX' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`ISO Partners Active ${current.slice(0, 7)}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await file.path());
    expect(book.worksheets.map((s) => s.name)).toEqual(['Sheet 0']);
    expect(book.getWorksheet('Sheet 0')?.rowCount).toBe(active.length + 1);
    expect(book.getWorksheet('Sheet 0')?.getRow(1).values).toEqual([
      undefined,
      'Partner',
      'Last approval',
      'Last application',
    ]);
  });

  test('month navigation stops at the current month and at January 2019', async ({ page }) => {
    await expect(page.getByRole('button', { name: 'Next month' })).toBeDisabled();
    await page.getByRole('button', { name: 'Previous month' }).click();
    const previous = addMonths(current, -1);
    await expect(page).toHaveURL(new RegExp(`dt=${previous}`));
    await expect(page.getByRole('button', { name: 'Next month' })).toBeEnabled();
    const res = await page.request.post(salesPaths.isoPartnersStatus, { data: statusBody(previous) });
    const rows = (await res.json()) as IsoPartnerStatusRow[];
    await expect(page.getByTestId('status-count-Dead')).toHaveText(
      String(rows.filter((r) => r.iso_status === 'Dead').length),
    );
    await page.goto('/isoperformance?dt=2019-01-01');
    await expect(page.getByRole('button', { name: 'Previous month' })).toBeDisabled();
  });

  test('sorts by approvals this year, and range and text filters narrow the rows', async ({ page }) => {
    const all = await query(page, {});
    expect(await tableTotal(page)).toBe(all.total);
    const header = page.getByRole('columnheader', { name: /This year/ });
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    const years = (await tableColumn(page, TABLE, 'This year')).map(Number);
    expect(years).toEqual([...years].sort((a, b) => b - a));

    // A range filter: min above max is refused, then a real range narrows the rows.
    let form = await openFilter(page, 'This month');
    await form.getByLabel('Min').fill('5');
    await form.getByLabel('Max').fill('2');
    await expect(form.getByRole('alert')).toHaveText('The minimum must not exceed the maximum');
    await expect(form.getByRole('button', { name: 'Apply' })).toBeDisabled();
    // Approvals are counts: the box takes no minus sign and no decimal point.
    await form.getByLabel('Max').fill('');
    await form.getByLabel('Max').pressSequentially('-2.5');
    await expect(form.getByLabel('Max')).toHaveValue('25');
    await form.getByLabel('Min').fill('1');
    await form.getByLabel('Max').fill('');
    await form.getByRole('button', { name: 'Apply' }).click();
    await settled(page);
    const ranged = await query(page, {
      filters: [{ id: 'approvals_this_month', kind: 'range', min: 1, max: null }],
    });
    expect(ranged.total).toBeLessThan(all.total);
    await expect.poll(() => tableTotal(page)).toBe(ranged.total);
    await settled(page);
    for (const v of await tableColumn(page, TABLE, 'This month')) expect(Number(v)).toBeGreaterThanOrEqual(1);

    // A text filter on top.
    const first = String(ranged.rows[0]?.partner ?? 'S').slice(0, 1);
    form = await openFilter(page, 'Partner');
    await form.getByLabel('Starts with').fill(first);
    await form.getByLabel('Starts with').press('Enter');
    await settled(page);
    const both = await query(page, {
      filters: [
        { id: 'approvals_this_month', kind: 'range', min: 1, max: null },
        { id: 'partner', kind: 'text', value: first },
      ],
    });
    await expect.poll(() => tableTotal(page)).toBe(both.total);
    await settled(page);
    for (const name of await tableColumn(page, TABLE, 'Partner')) expect(name.startsWith(first)).toBe(true);
  });

  test('exports the table through the server', async ({ page }) => {
    await page.getByRole('button', { name: 'Export XLSX' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export ISO performance to XLSX' });
    await expect(dialog.getByTestId('export-count')).toContainText('rows will be exported');
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`ISO-Performance-${current.slice(0, 7)}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await file.path());
    const total = (await query(page, {})).total;
    expect(book.worksheets[0]?.rowCount).toBe(total + 1);
  });
});

import {
  residualImportColumns,
  residualTable,
  selfServeImportColumns,
  selfServeTable,
  type TablePage,
  XLSX_MIME,
} from '@paydesk/domain';
import { type Browser, expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import {
  amount,
  type DemoUser,
  sessionOf,
  tableColumn,
  tableHeaders,
  tableTotal,
  todayClearOfMidnight,
} from './support';

// The tests read today's date as they run; the file starts clear of a midnight, so none of them straddles one
// (support.ts).
test.beforeAll(async () => {
  await todayClearOfMidnight();
});

type Row = Record<string, string | number | null>;

interface Screen {
  name: string;
  path: string;
  title: string;
  def: typeof selfServeTable | typeof residualTable;
  noun: string;
  /** A text column and a prefix that narrows it. */
  text: { label: string; id: string; prefix: string };
  /** A whole-number range column (a count). */
  range: { label: string; id: string; min: number };
  /** The volume column's id. */
  volume: string;
  /** Shown by default, then hidden; hidden by default, then shown. */
  toHide: string;
  toShow: string;
  /**
   * Opens on the current month, which is still filling (on its first day no merchant has 1,000 transactions yet):
   * the tests step back to the last whole month. Residual Self Serve opens on the last month imported.
   */
  opensOnFillingMonth: boolean;
}

/** The first day of the month before today's (the last whole month), as the screens' `dt` takes it. */
function lastWholeMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
}

/** The screen's path with `params`, on the last whole month where the screen opens on a filling one. */
function at(screen: Screen, params = ''): string {
  const all = [screen.opensOnFillingMonth ? `dt=${lastWholeMonth()}` : '', params].filter(Boolean).join('&');
  return all ? `${screen.path}?${all}` : screen.path;
}

const queryPath = (screen: Screen) =>
  `/api${screen.path === '/selfserve' ? '/selfserve' : '/ResidualSelfServe'}/query`;

/**
 * Opens the screen from the navigation, as a user would, then (where it opens on a filling month) steps back to the
 * last whole one with the screen's own button. Answers the month the table shows: the `dt` its query asked for.
 */
async function openFromNav(page: Page, screen: Screen): Promise<string> {
  let asked = page.waitForRequest((r) => r.url().endsWith(queryPath(screen)));
  await page.goto('/sales');
  await page.getByRole('navigation').getByRole('link', { name: screen.name, exact: true }).click();
  await expect(page.getByRole('heading', { name: screen.title })).toBeVisible();
  if (screen.opensOnFillingMonth) {
    await asked;
    await settled(page, screen.title);
    asked = page.waitForRequest(
      (r) =>
        r.url().endsWith(queryPath(screen)) && (r.postDataJSON() as { dt?: string }).dt === lastWholeMonth(),
    );
    await page.getByRole('button', { name: 'Previous month' }).click();
    await expect(page).toHaveURL(new RegExp(`dt=${lastWholeMonth()}`));
  }
  const dt = ((await asked).postDataJSON() as { dt: string }).dt;
  await settled(page, screen.title);
  return dt;
}

const screens: Screen[] = [
  {
    name: 'Self Serve',
    path: '/selfserve',
    title: 'Self Serve (BETA)',
    def: selfServeTable,
    noun: 'merchants',
    text: { label: 'MID', id: 'mid', prefix: '7410' },
    range: { label: 'Transactions', id: 'tx_cnt', min: 1000 },
    volume: 'tx_amt',
    toHide: 'Email',
    toShow: 'City',
    opensOnFillingMonth: true,
  },
  {
    name: 'Residual Self Serve',
    path: '/residualselfserve',
    title: 'Residual Self Serve (BETA)',
    def: residualTable,
    noun: 'rows',
    text: { label: 'MID', id: 'MID', prefix: '4445' },
    range: { label: 'Transactions', id: 'Transactions', min: 1000 },
    volume: 'Volume',
    toHide: 'Office',
    toShow: 'Refunds net',
    opensOnFillingMonth: false,
  },
];

async function openFilter(page: Page, label: string) {
  await page.getByRole('button', { name: `Filter ${label}`, exact: true }).click();
  return page.getByRole('form', { name: `Filter ${label}` });
}

async function filterText(page: Page, label: string, prefix: string) {
  const form = await openFilter(page, label);
  await form.getByLabel('Starts with').fill(prefix);
  await form.getByLabel('Starts with').press('Enter');
  await expect(form).toBeHidden();
}

async function filterRange(page: Page, label: string, min: string, max: string) {
  const form = await openFilter(page, label);
  await form.getByLabel('Min').fill(min);
  await form.getByLabel('Max').fill(max);
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(form).toBeHidden();
}

/** Waits until the table shows the answer to the latest request. */
async function settled(page: Page, title: string) {
  await expect(page.getByRole('table', { name: title, exact: true })).toHaveAttribute('aria-busy', 'false');
}

async function workbookRows(path: string): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('The file has no sheet');
  const rows: unknown[][] = [];
  sheet.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** One page of a report straight from the API, with the page's own session. */
async function queryRows(page: Page, path: string, body: object): Promise<TablePage<Row>> {
  const res = await page.request.post(`/api${path}/query`, {
    data: { filters: [], sort: [], search: '', page: 1, pageSize: 1000, ...body },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as TablePage<Row>;
}

async function importFile(page: Page, name: string, buffer: Buffer) {
  await page.getByRole('button', { name: 'Import XLSX' }).click();
  const modal = page.getByRole('dialog');
  await expect(modal.getByTestId('column-layout')).toBeVisible();
  const button = modal.getByRole('button', { name: 'Import', exact: true });
  await expect(button).toBeDisabled();
  await modal.locator('input[type=file]').setInputFiles({ name, mimeType: XLSX_MIME, buffer });
  await expect(button).toBeEnabled();
  await button.click();
  return modal;
}

for (const screen of screens) {
  test.describe(screen.name, () => {
    test.describe(() => {
      test.use({ storageState: sessionOf('admin@paydesk.local') });
      test('filters by text prefix and range, sorts, pages and chooses columns, all kept in the URL', async ({
        page,
      }) => {
        await openFromNav(page, screen);
        const all = await tableTotal(page);
        expect(all).toBeGreaterThan(25);

        // Text prefix.
        await filterText(page, screen.text.label, screen.text.prefix);
        await expect(page).toHaveURL(new RegExp(`f\\.${screen.text.id}=${screen.text.prefix}`));
        await expect(async () => {
          const mids = await tableColumn(page, screen.title, screen.text.label);
          expect(mids.length).toBeGreaterThan(0);
          expect(mids.every((mid) => mid.startsWith(screen.text.prefix))).toBe(true);
          expect(await tableTotal(page)).toBeLessThan(all);
        }).toPass();
        const byPrefix = await tableTotal(page);

        // Range on a count: the boxes take no minus sign and no decimal point, and min ≤ max.
        const form = await openFilter(page, screen.range.label);
        await form.getByLabel('Min').pressSequentially('-1.5');
        await expect(form.getByLabel('Min')).toHaveValue('15');
        await form.getByLabel('Max').fill('2147483648');
        await expect(form.getByRole('alert')).toHaveText('Enter whole numbers up to 2,147,483,647');
        await expect(form.getByRole('button', { name: 'Apply' })).toBeDisabled();
        await form.getByLabel('Min').fill('10');
        await form.getByLabel('Max').fill('5');
        await expect(form.getByRole('alert')).toHaveText('The minimum must not exceed the maximum');
        await page.keyboard.press('Escape');
        await filterRange(page, screen.range.label, String(screen.range.min), '');
        await expect(page.getByRole('group', { name: 'Filters in force' })).toContainText(
          `${screen.range.label} ≥ ${screen.range.min.toLocaleString('en-US')}`,
        );
        await expect(async () => {
          const counts = await tableColumn(page, screen.title, screen.range.label);
          expect(counts.length).toBeGreaterThan(0);
          expect(counts.every((c) => amount(c) >= screen.range.min)).toBe(true);
          expect(await tableTotal(page)).toBeLessThan(byPrefix);
        }).toPass();
        const filtered = await tableTotal(page);

        // Sort on the range column: ascending, then descending, then off.
        const sortButton = page.getByRole('button', { name: screen.range.label, exact: true });
        await sortButton.click();
        await expect(page).toHaveURL(new RegExp(`sort=${screen.range.id}(&|$)`));
        await expect(async () => {
          const counts = (await tableColumn(page, screen.title, screen.range.label)).map(amount);
          expect(counts).toEqual([...counts].sort((a, b) => a - b));
          expect(counts[0]).toBeLessThan(counts[counts.length - 1] ?? 0);
        }).toPass();
        await sortButton.click();
        await expect(page).toHaveURL(new RegExp(`sort=-${screen.range.id}(&|$)`));
        await expect(async () => {
          const counts = (await tableColumn(page, screen.title, screen.range.label)).map(amount);
          expect(counts).toEqual([...counts].sort((a, b) => b - a));
        }).toPass();
        const firstPage = await tableColumn(page, screen.title, screen.text.label);

        // Paging.
        await page.getByRole('button', { name: 'Page 2', exact: true }).click();
        await expect(page.getByTestId('table-count')).toHaveText(
          `11–${Math.min(20, filtered)} of ${filtered.toLocaleString('en-US')} ${screen.noun}`,
        );
        await settled(page, screen.title);
        const secondPage = await tableColumn(page, screen.title, screen.text.label);
        expect(secondPage.some((mid) => firstPage.includes(mid))).toBe(false);
        await page.getByLabel('Rows per page').click();
        await page.getByRole('option', { name: '25', exact: true }).click();
        await expect(page.getByTestId('table-count')).toContainText(`1–${Math.min(25, filtered)} of`);

        // Columns.
        expect(await tableHeaders(page, screen.title)).toContain(screen.toHide);
        expect(await tableHeaders(page, screen.title)).not.toContain(screen.toShow);
        await page.getByRole('button', { name: /^Columns/ }).click();
        await page.getByRole('checkbox', { name: screen.toHide, exact: true }).uncheck();
        await page.getByRole('checkbox', { name: screen.toShow, exact: true }).check();
        await page.keyboard.press('Escape');
        await expect(async () => {
          const headers = await tableHeaders(page, screen.title);
          expect(headers).toContain(screen.toShow);
          expect(headers).not.toContain(screen.toHide);
        }).toPass();

        // A reload shows the same view.
        const url = page.url();
        await page.reload();
        await settled(page, screen.title);
        expect(page.url()).toBe(url);
        expect(await tableTotal(page)).toBe(filtered);
        expect(await tableHeaders(page, screen.title)).toContain(screen.toShow);
        expect(await tableHeaders(page, screen.title)).not.toContain(screen.toHide);

        // Removing the filters brings the whole month back.
        await page.getByRole('button', { name: 'Clear all' }).click();
        await expect(async () => expect(await tableTotal(page)).toBe(all)).toPass();
      });
      test('the totals row sums every filtered row, and MID stays in view when scrolled right', async ({
        page,
      }) => {
        const dt = await openFromNav(page, screen);
        await filterRange(page, screen.range.label, String(screen.range.min), '');
        // The pill renders with the new query already fetching, so "settled" after it means the filtered answer.
        await expect(page.getByRole('group', { name: 'Filters in force' })).toBeVisible();
        await settled(page, screen.title);
        const filtered = await tableTotal(page);

        // The oracle: the spec's whole-month list call, filtered and summed here in cents.
        const listPath = screen.path === '/selfserve' ? '/api/selfserve' : '/api/ResidualSelfServe';
        const res = await page.request.post(listPath, { data: { dt } });
        expect(res.status()).toBe(200);
        const rows = ((await res.json()) as Row[]).filter(
          (r) => Number(r[screen.range.id]) >= screen.range.min,
        );
        expect(rows.length).toBe(filtered);
        const cents = rows.reduce((sum, r) => sum + BigInt(Math.round(Number(r[screen.volume]) * 100)), 0n);
        const count = rows.reduce((sum, r) => sum + Number(r[screen.range.id]), 0);

        const totals = page.getByRole('table', { name: screen.title, exact: true }).locator('tfoot tr');
        await expect(totals).toContainText(`Total (all ${filtered.toLocaleString('en-US')} filtered rows)`);
        const headers = await tableHeaders(page, screen.title);
        const cellUnder = async (label: string) => {
          // The label cell spans the pinned columns; count the footer cells by their spans.
          const spans = await totals
            .locator('td')
            .evaluateAll((tds) =>
              tds.map((td) => ({ span: (td as HTMLTableCellElement).colSpan, text: td.textContent ?? '' })),
            );
          let column = 0;
          for (const cell of spans) {
            if (column === headers.indexOf(label)) return cell.text;
            column += cell.span;
          }
          throw new Error(`No totals cell under ${label}`);
        };
        expect(amount(await cellUnder('Volume'))).toBeCloseTo(Number(cents) / 100, 2);
        expect(amount(await cellUnder(screen.range.label))).toBe(count);

        // Scrolled all the way right, the last column is in view and so is MID, at the left edge.
        const table = page.getByRole('table', { name: screen.title, exact: true });
        await table.evaluate((t) => {
          const box = t.parentElement as HTMLElement;
          box.scrollLeft = box.scrollWidth;
        });
        const frame = await table.evaluate((t) =>
          (t.parentElement as HTMLElement).getBoundingClientRect().toJSON(),
        );
        const mid = await table.locator('thead th').nth(headers.indexOf('MID')).boundingBox();
        const first = await table.locator('thead th').first().boundingBox();
        expect(mid && mid.x >= frame.x - 1 && mid.x < frame.x + 400).toBe(true);
        expect(first && first.x + first.width <= frame.x + 1).toBe(true);
        await expect(
          table.locator('tbody tr').first().locator('td').nth(headers.indexOf('MID')),
        ).toBeInViewport();

        // Hovered, the pinned MID cell takes the row's hover colour, opaque: the cells scrolled under it never
        // show through (it was transparent while the hover colour came from a variable Mantine does not set).
        const row = table.locator('tbody tr').nth(1);
        await row.hover();
        await expect(async () => {
          const [cell, whole] = await row.evaluate((tr, at) => {
            const td = tr.querySelectorAll('td')[at] as HTMLElement;
            return [getComputedStyle(td).backgroundColor, getComputedStyle(tr).backgroundColor];
          }, headers.indexOf('MID'));
          expect(cell).not.toBe('rgba(0, 0, 0, 0)');
          expect(cell).toBe(whole);
        }).toPass();
      });
    });

    test.describe(() => {
      test.use({ storageState: sessionOf('sales@paydesk.local') });
      test('searches after typing stops; clearing brings back the full list', async ({ page }) => {
        await page.goto(at(screen));
        await settled(page, screen.title);
        const all = await tableTotal(page);
        const [mid] = await tableColumn(page, screen.title, 'MID');
        expect(mid).toBeTruthy();
        await page.getByRole('textbox', { name: 'Search' }).fill(mid ?? '');
        await expect(page).toHaveURL(new RegExp(`q=${mid}`));
        await expect(async () => {
          expect(await tableTotal(page)).toBeLessThan(all);
          expect(await tableColumn(page, screen.title, 'MID')).toContain(mid);
        }).toPass();
        await page.getByRole('textbox', { name: 'Search' }).fill('no such merchant zz');
        await expect(page.getByText(`No ${screen.noun} match these filters`)).toBeVisible();
        await page.getByRole('textbox', { name: 'Search' }).fill('');
        await expect(async () => expect(await tableTotal(page)).toBe(all)).toPass();
        // Sales may export but not import.
        await expect(page.getByRole('button', { name: 'Export XLSX' })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Import XLSX' })).toHaveCount(0);
      });
    });

    test.describe(() => {
      test.use({ storageState: sessionOf('admin@paydesk.local') });
      test('saves a report, loads it back, and no other user sees it', async ({ page, browser }) => {
        await page.goto(at(screen, `f.${screen.range.id}=${screen.range.min}..&size=25`));
        await settled(page, screen.title);
        await page.getByRole('button', { name: /^Columns/ }).click();
        await page.getByRole('checkbox', { name: screen.toShow, exact: true }).check();
        await page.keyboard.press('Escape');
        const total = await tableTotal(page);
        const name = `Busy ${screen.name} ${Date.now()}`;

        // An empty name sends nothing.
        await page.getByLabel('Save this view as').fill('   ');
        await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
        await page.getByLabel('Save this view as').fill(name);
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await expect(page.getByText('Success', { exact: true })).toBeVisible();
        // The toast hides by itself.
        await expect(page.getByText('Success', { exact: true })).toBeHidden({ timeout: 6000 });

        await page.goto(at(screen));
        await settled(page, screen.title);
        expect(await tableTotal(page)).toBeGreaterThan(total);
        await page.getByRole('combobox', { name: 'Saved reports' }).click();
        await page.getByRole('option', { name, exact: true }).click();
        await page.getByRole('button', { name: 'Load' }).click();
        await expect(page).toHaveURL(new RegExp(`f\\.${screen.range.id}=${screen.range.min}`));
        await expect(async () => expect(await tableTotal(page)).toBe(total)).toPass();
        await expect(page.getByTestId('table-count')).toContainText(`1–25 of`);
        expect(await tableHeaders(page, screen.title)).toContain(screen.toShow);

        await expectNotListed(browser, 'sales.admin@paydesk.local', screen, name);

        await page.getByRole('button', { name: 'Delete' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
        await expect(page.getByText(`Report “${name}” deleted`)).toBeVisible();
        // It was this user's only report of the table.
        await expect(page.getByRole('combobox', { name: 'Saved reports' })).toHaveAttribute(
          'placeholder',
          'None saved yet',
        );
      });
    });

    test.describe(() => {
      test.use({ storageState: sessionOf('finance@paydesk.local') });
      test('exports every filtered row, not just the page', async ({ page }) => {
        await page.goto(at(screen, `f.${screen.range.id}=${screen.range.min}..`));
        await settled(page, screen.title);
        const total = await tableTotal(page);
        expect(total).toBeGreaterThan(10);
        const headers = await tableHeaders(page, screen.title);

        await page.getByRole('button', { name: 'Export XLSX' }).click();
        const modal = page.getByRole('dialog');
        await expect(modal.getByTestId('export-count')).toHaveText(
          `${total.toLocaleString('en-US')} rows will be exported`,
        );
        await expect(modal.getByRole('table', { name: 'Export preview' }).locator('tbody tr')).toHaveCount(
          10,
        );
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          modal.getByRole('button', { name: 'Download' }).click(),
        ]);
        expect(download.suggestedFilename()).toMatch(/^[A-Za-z]+-\d{4}-\d{2}\.xlsx$/);
        const rows = await workbookRows(await download.path());
        expect(rows[0]).toEqual(headers);
        expect(rows.length - 1).toBe(total);
        await expect(modal.getByText(`Downloaded ${download.suggestedFilename()}`)).toBeVisible();
      });
    });
  });
}

async function expectNotListed(browser: Browser, email: DemoUser, screen: Screen, name: string) {
  const context = await browser.newContext({ storageState: sessionOf(email) });
  const other = await context.newPage();
  await other.goto(screen.path);
  const own = `Own ${Date.now()}`;
  await other.getByLabel('Save this view as').fill(own);
  await other.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(other.getByText('Success', { exact: true })).toBeVisible();
  await other.getByRole('combobox', { name: 'Saved reports' }).click();
  await expect(other.getByRole('option', { name: own, exact: true })).toBeVisible();
  await expect(other.getByRole('option', { name, exact: true })).toHaveCount(0);
  await context.close();
}

test.describe('Self Serve import', () => {
  const month = '2025-06-01';

  test.describe(() => {
    test.use({ storageState: sessionOf('sales.admin@paydesk.local') });
    test('a good file replaces the MIDs’ month; a bad one is refused row by row and changes nothing', async ({
      page,
    }) => {
      await page.goto(`/selfserve?dt=${month}`);
      await settled(page, 'Self Serve (BETA)');
      const [first, second] = await tableColumn(page, 'Self Serve (BETA)', 'MID');
      expect(first && second).toBeTruthy();
      const headers = selfServeImportColumns.map((c) => c.header);

      const good = await xlsx([
        headers,
        [first, 12345.67, 321, 10.5, 1, 20, 2, 99.99],
        [second, 1000, 10, 0, 0, 0, 0, 5],
      ]);
      let modal = await importFile(page, 'good.xlsx', good);
      await expect(modal.getByRole('status', { name: 'Success' })).toBeVisible();
      await expect(modal).toContainText('Imported 2 rows');
      await modal.getByRole('button', { name: 'Close' }).click();

      await page.getByRole('textbox', { name: 'Search' }).fill(first ?? '');
      await expect(async () => {
        expect(await tableColumn(page, 'Self Serve (BETA)', 'MID')).toEqual([first]);
        expect(await tableColumn(page, 'Self Serve (BETA)', 'Volume')).toEqual(['$12,345.67']);
        expect(await tableColumn(page, 'Self Serve (BETA)', 'Net income')).toEqual(['$99.99']);
      }).toPass();
      await page.goto(`/selfserve?dt=${month}`);
      await settled(page, 'Self Serve (BETA)');
      const before = await tableTotal(page);
      const volumes = await tableColumn(page, 'Self Serve (BETA)', 'Volume');

      const bad = await xlsx([
        headers,
        ['0000999999999999', 1, 1, 0, 0, 0, 0, 1],
        [first, 'lots', 1, 0, 0, 0, 0, 1],
      ]);
      modal = await importFile(page, 'bad.xlsx', bad);
      const problems = modal.getByRole('table', { name: 'Problems in the file' });
      await expect(modal.getByRole('alert', { name: 'Fail' })).toBeVisible();
      await expect(problems.getByRole('row', { name: /^3 tx_amt/ })).toContainText('must be a number');
      await modal.getByRole('button', { name: 'Close' }).click();
      await page.reload();
      await settled(page, 'Self Serve (BETA)');
      expect(await tableTotal(page)).toBe(before);
      expect(await tableColumn(page, 'Self Serve (BETA)', 'Volume')).toEqual(volumes);
    });
  });

  test.describe(() => {
    test.use({ storageState: sessionOf('admin@paydesk.local') });
    test('an unknown MID is refused with its row number', async ({ page }) => {
      await page.goto(`/selfserve?dt=${month}`);
      const headers = selfServeImportColumns.map((c) => c.header);
      const modal = await importFile(
        page,
        'unknown.xlsx',
        await xlsx([headers, ['0000999999999999', 1, 1, 0, 0, 0, 0, 1]]),
      );
      const problems = modal.getByRole('table', { name: 'Problems in the file' });
      await expect(problems.getByRole('row', { name: /^2 / })).toContainText('Unknown MID 0000999999999999');
    });
  });

  test.describe(() => {
    test.use({ storageState: sessionOf('admin@paydesk.local') });
    test('a file that is not .xlsx cannot be imported', async ({ page }) => {
      await page.goto('/selfserve');
      await page.getByRole('button', { name: 'Import XLSX' }).click();
      const modal = page.getByRole('dialog');
      await modal
        .locator('input[type=file]')
        .setInputFiles({ name: 'rows.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b') });
      await expect(modal.getByText('Choose an .xlsx file (Excel workbook).')).toBeVisible();
      await expect(modal.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
      await modal
        .locator('input[type=file]')
        .setInputFiles({ name: 'empty.xlsx', mimeType: XLSX_MIME, buffer: Buffer.alloc(0) });
      await expect(modal.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
    });
  });
});

test.describe('Residual Self Serve import', () => {
  const month = '2021-02-01';

  test.describe(() => {
    test.use({ storageState: sessionOf('admin@paydesk.local') });
    test('a processor’s month imports back with a change; a bad file changes nothing', async ({ page }) => {
      const title = 'Residual Self Serve (BETA)';
      const filters = [{ id: 'Processor', kind: 'select', values: ['PPS'] }];
      const { rows, total } = await queryRows(page, '/ResidualSelfServe', { dt: month, filters });
      expect(total).toBeGreaterThan(0);
      expect(rows.length).toBe(total);
      const headers = residualImportColumns.map((c) => c.header);
      const typeOf = new Map(residualImportColumns.map((c) => [c.header, c.type]));
      const cell = (header: string, value: string | number | null) =>
        value === null ? null : typeOf.get(header) === 'money' ? Number(value) : value;
      const changed = rows.map((row, i) =>
        headers.map((h) => (i === 0 && h === 'TotalNet' ? 4242.42 : cell(h, row[h] ?? null))),
      );
      const target = String(rows[0]?.MID);

      await page.goto(`/residualselfserve?dt=${month}`);
      await settled(page, title);
      const before = await tableTotal(page);
      let modal = await importFile(page, 'residual.xlsx', await xlsx([headers, ...changed]));
      await expect(modal.getByRole('status', { name: 'Success' })).toBeVisible();
      await modal.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('textbox', { name: 'Search' }).fill(target);
      await expect(async () => {
        const mids = await tableColumn(page, title, 'MID');
        const processors = await tableColumn(page, title, 'Processor');
        const nets = await tableColumn(page, title, 'Total net');
        const i = mids.findIndex((m, k) => m === target && processors[k] === 'PPS');
        expect(nets[i]).toBe('$4,242.42');
      }).toPass();
      await page.getByRole('button', { name: 'Clear search' }).click();
      await expect(async () => expect(await tableTotal(page)).toBe(before)).toPass();

      const broken = changed.slice(0, 2).map((r) => [...r]);
      if (broken[1]) broken[1][headers.indexOf('Volume')] = 'abc';
      modal = await importFile(page, 'broken.xlsx', await xlsx([headers, ...broken]));
      await expect(modal.getByRole('alert', { name: 'Fail' })).toBeVisible();
      await expect(
        modal.getByRole('table', { name: 'Problems in the file' }).getByRole('row', { name: /^3 Volume/ }),
      ).toContainText('Volume must be a number');
      await modal.getByRole('button', { name: 'Close' }).click();
      await page.reload();
      await settled(page, title);
      expect(await tableTotal(page)).toBe(before);
    });
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('partner@summitpayments.example') });
  test('the partner user sees only their ISO’s merchants', async ({ page }) => {
    await page.goto('/selfserve?size=25');
    await settled(page, 'Self Serve (BETA)');
    const isos = await tableColumn(page, 'Self Serve (BETA)', 'ISO');
    expect(isos.length).toBeGreaterThan(0);
    expect(new Set(isos)).toEqual(new Set(['Summit Payment Group']));
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });
  test('the month selector stops at both ends', async ({ page }) => {
    await page.goto('/residualselfserve?dt=2021-01-01');
    await expect(page.getByRole('combobox', { name: 'Month' })).toHaveValue('January 2021');
    await expect(page.getByRole('button', { name: 'Previous month' })).toBeDisabled();
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page).toHaveURL(/dt=2021-02-01/);
    await page.goto('/selfserve');
    await expect(page.getByRole('button', { name: 'Next month' })).toBeDisabled();
    await expect(page.getByRole('combobox', { name: 'Month' })).toHaveValue(
      new Date().toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    );
  });
});

import {
  ACH_EXPORT_FILE,
  ACH_STALE_EDIT_MESSAGE,
  ACH_UPDATE_FAILED_MESSAGE,
  type AchRow,
  achClassification,
  achPaths,
  achTable,
  entryDescriptionLabel,
  type FilterState,
  type ReturnRatesAnswer,
  returnCodeLabel,
  type TablePage,
} from '@paydesk/domain';
import { type Browser, expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { type DemoUser, sessionOf, tableColumn, tableHeaders, tableTotal } from './support';

const TABLE = 'ACH returns';

/** Rows of the ACH table straight from the API, with the page's own session (the oracle's raw rows). */
async function achRows(
  page: Page,
  filters: FilterState[],
  sort = [{ id: 'main_unique_key', desc: false }],
): Promise<TablePage<AchRow>> {
  const res = await page.request.post(achPaths.tableQuery, {
    data: { filters, sort, search: '', page: 1, pageSize: 500 },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as TablePage<AchRow>;
}

/** A row as the server now has it, found among the rows of its MID and entry date. */
async function current(page: Page, row: AchRow): Promise<AchRow> {
  const day = String(row.EffectiveEntryDATE);
  const { rows } = await achRows(page, [
    { id: 'IndividualIdentificationNumber', kind: 'text', value: String(row.IndividualIdentificationNumber) },
    { id: 'EffectiveEntryDATE', kind: 'dateRange', from: day, to: day },
  ]);
  const found = rows.find((r) => r.main_unique_key === row.main_unique_key && r.historic === row.historic);
  if (!found) throw new Error(`No ACH row ${row.main_unique_key}`);
  return found;
}

/** The screen narrowed to one row's MID and entry date: a handful of rows, the one wanted among them. */
function rowUrl(row: AchRow) {
  const day = String(row.EffectiveEntryDATE);
  return `/ach?f.IndividualIdentificationNumber=${row.IndividualIdentificationNumber}&f.EffectiveEntryDATE=${day}..${day}`;
}

/** The name the screen gives a row in its inputs' and buttons' labels. */
const rowName = (row: AchRow) => `MID ${row.IndividualIdentificationNumber}, return #${row.main_unique_key}`;

async function settled(page: Page) {
  await expect(page.getByRole('table', { name: TABLE, exact: true })).toHaveAttribute('aria-busy', 'false');
}

/** Live, unworked returns with money, none used by another test (each test takes its own index). */
async function freshRows(page: Page): Promise<AchRow[]> {
  const { rows } = await achRows(page, [
    { id: 'classification', kind: 'select', values: ['unresolved'] },
    { id: 'historic', kind: 'select', values: ['0'] },
  ]);
  const fresh = rows.filter((r) => r.rejRes === null && r.comment === null && r.usedRsv === null);
  expect(fresh.length).toBeGreaterThan(10);
  return fresh;
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

async function openAs(browser: Browser, email: DemoUser, url: string) {
  const context = await browser.newContext({ storageState: sessionOf(email) });
  const page = await context.newPage();
  await page.goto(url);
  await settled(page);
  return { context, page };
}

test.describe('ACH Returns as an editor (finance, with ACH editing)', () => {
  test.use({ storageState: sessionOf('finance@paydesk.local') });

  test('filtering by classification: every row shown is of that class by the spec’s rule', async ({
    page,
  }) => {
    await page.goto('/ach');
    await settled(page);
    const all = await tableTotal(page);
    expect(all).toBeGreaterThan(100);
    // The spec's page sizes, 25 first.
    await expect(page.getByTestId('table-count')).toContainText('1–25 of');
    await page.getByLabel('Rows per page').click();
    await expect(page.locator('.mantine-Select-dropdown:visible').getByRole('option')).toHaveText([
      '25',
      '50',
      '100',
      '200',
      '500',
    ]);
    await page.keyboard.press('Escape');

    for (const klass of ['NOC', 'unresolved', 'reject closed'] as const) {
      await page.getByRole('button', { name: 'Filter Class', exact: true }).click();
      const form = page.getByRole('form', { name: 'Filter Class' });
      for (const other of ['NOC', 'resurrect', 'unresolved', 'reject closed']) {
        await form.getByRole('checkbox', { name: other, exact: true }).setChecked(other === klass);
      }
      await form.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.getAll('f.classification')).toEqual([klass]);
      // The oracle: the spec's rule applied here to the raw fields of every filtered row.
      const { rows, total } = await achRows(page, [
        { id: 'classification', kind: 'select', values: [klass] },
      ]);
      expect(total).toBeGreaterThan(0);
      expect(total).toBeLessThan(all);
      for (const row of rows) {
        expect(achClassification(row as Parameters<typeof achClassification>[0])).toBe(klass);
      }
      // The screen shows those rows (once the new page has replaced the one before).
      await expect(async () => {
        expect(await tableTotal(page)).toBe(total);
        expect(new Set(await tableColumn(page, TABLE, 'Class'))).toEqual(new Set([klass]));
      }).toPass();
      if (klass === 'NOC') {
        // Notifications of change carry no money, and their codes show by name.
        for (const amount of await tableColumn(page, TABLE, 'Amount')) expect(amount).toBe('$0.00');
        for (const code of await tableColumn(page, TABLE, 'Return code')) expect(code).toMatch(/^C0\d \S/);
      }
    }
    // Return codes read as labels ('R01 NSF').
    await page.goto('/ach?f.AddendaRelated=R01');
    await settled(page);
    const codes = await tableColumn(page, TABLE, 'Return code');
    expect(new Set(codes)).toEqual(new Set([returnCodeLabel('R01')]));

    // Monthly fees read as the month they bill: the entry date less 15 days.
    await page.goto('/ach?f.CompanyEntryDescription=FEES&sort=EffectiveEntryDATE,-main_unique_key');
    const fees = await achRows(
      page,
      [{ id: 'CompanyEntryDescription', kind: 'select', values: ['FEES'] }],
      [
        { id: 'EffectiveEntryDATE', desc: false },
        { id: 'main_unique_key', desc: true },
      ],
    );
    expect(fees.total).toBeGreaterThan(0);
    const expected = fees.rows
      .slice(0, 25)
      .map((r) => entryDescriptionLabel('FEES', String(r.EffectiveEntryDATE)));
    expect(expected[0]).toMatch(/^[A-Z][a-z]+ Fees$/);
    await expect(async () =>
      expect(await tableColumn(page, TABLE, 'Entry description')).toEqual(expected),
    ).toPass();

    // Alert: the legal name owes on its returns while this MID's reserve holds money.
    await page.goto('/ach?f.Alert=Yes');
    const alerts = await achRows(page, [{ id: 'Alert', kind: 'select', values: ['Yes'] }]);
    expect(alerts.total).toBeGreaterThan(0);
    for (const row of alerts.rows) {
      expect(Number(row.merchRejBal)).toBeLessThan(0);
      expect(Number(row.rsvBalance)).toBeGreaterThan(0);
    }
    await expect(async () =>
      expect(new Set(await tableColumn(page, TABLE, 'Alert'))).toEqual(new Set(['Alert'])),
    ).toPass();
  });

  test('each kind of inline edit saves, persists after reload and is in the row’s history', async ({
    page,
  }) => {
    const [row] = await freshRows(page);
    if (!row) throw new Error('no row');
    const name = rowName(row);
    await page.goto(rowUrl(row));
    await settled(page);

    const comment = page.getByRole('textbox', { name: `Comment of ${name}` });
    const usedRsv = page.getByRole('textbox', { name: `Used reserve of ${name}` });
    const reRan = page.getByRole('textbox', { name: `Re-ran of ${name}` });
    const rejRes = page.getByRole('combobox', { name: `Resolution of ${name}` });
    const resDate = page.getByLabel(`Resolved of ${name}`, { exact: true });
    const usedRsvDate = page.getByLabel(`Used reserve date of ${name}`, { exact: true });

    // Text, saved on Enter.
    await comment.fill('Called the merchant, promised a wire');
    await comment.press('Enter');
    await expect(page.getByLabel(`Saved Comment of ${name}`)).toBeVisible();

    // An amount that is not one is refused before anything is sent, and says why.
    await usedRsv.fill('12x');
    await usedRsv.press('Enter');
    await expect(usedRsv).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(`Used reserve of ${name}: not saved`)).toBeVisible();
    expect((await current(page, row)).usedRsv).toBeNull();
    // An amount, saved on leaving the cell.
    await usedRsv.fill('125.5');
    await usedRsv.press('Tab');
    await expect(page.getByLabel(`Saved Used reserve of ${name}`)).toBeVisible();
    // Leaving a cell unchanged sends nothing.
    await reRan.focus();
    await reRan.press('Tab');
    await expect(page.getByLabel(`Saved Re-ran of ${name}`)).toHaveCount(0);

    // A resolution, saved when chosen; the class follows it.
    await rejRes.selectOption('Used Reserve - PARTIAL');
    await expect(page.getByLabel(`Saved Resolution of ${name}`)).toBeVisible();

    // Dates, saved on leaving the cell.
    // (Tab inside a date input moves between its day, month and year: leaving it is a click elsewhere.)
    await resDate.fill('2026-11-20');
    await resDate.blur();
    await expect(page.getByLabel(`Saved Resolved of ${name}`)).toBeVisible();

    await page.reload();
    await settled(page);
    await expect(comment).toHaveValue('Called the merchant, promised a wire');
    await expect(usedRsv).toHaveValue('125.50');
    await expect(reRan).toHaveValue('');
    await expect(rejRes).toHaveValue('Used Reserve - PARTIAL');
    await expect(resDate).toHaveValue('2026-11-20');
    // Hidden by default: shown from the column menu, it too is a date input.
    await page.getByRole('button', { name: /^Columns/ }).click();
    await page.getByRole('checkbox', { name: 'Used reserve date', exact: true }).check();
    await page.keyboard.press('Escape');
    await usedRsvDate.fill('2026-11-19');
    await usedRsvDate.press('Enter');
    await expect(page.getByLabel(`Saved Used reserve date of ${name}`)).toBeVisible();

    // The server's record agrees, and names who worked it.
    const saved = await current(page, row);
    expect(saved).toMatchObject({
      comment: 'Called the merchant, promised a wire',
      usedRsv: '125.50',
      reRan: null,
      rejRes: 'Used Reserve - PARTIAL',
      resDate: '2026-11-20',
      usedRsvDate: '2026-11-19',
      workedBy: 'finance@paydesk.local',
      classification: 'reject closed',
    });

    // The history, newest first: one line per change, the unchanged re-ran not among them.
    await page.getByRole('button', { name: `History ${name}` }).click();
    const drawer = page.getByRole('dialog', { name: `History of ${name}` });
    const changes = drawer.getByRole('table', { name: 'Changes' });
    await expect(changes.locator('tbody tr')).toHaveCount(5);
    const columns = await changes.locator('tbody tr td:nth-child(3)').allInnerTexts();
    expect(columns).toEqual(['Used reserve date', 'Resolved', 'Resolution', 'Used reserve', 'Comment']);
    await expect(changes.locator('tbody tr').nth(3)).toContainText('$125.50');
    await expect(drawer).toContainText('Last worked by finance@paydesk.local');
  });

  test('an edit to a row someone else changed is refused and says so; Reload shows their change', async ({
    page,
    browser,
  }) => {
    const row = (await freshRows(page))[1];
    if (!row) throw new Error('no row');
    const name = rowName(row);
    await page.goto(rowUrl(row));
    await settled(page);
    const other = await openAs(browser, 'finance.admin@paydesk.local', rowUrl(row));

    // The other editor saves first.
    const theirs = other.page.getByRole('textbox', { name: `Comment of ${name}` });
    await theirs.fill('Theirs: merchant disputes');
    await theirs.press('Enter');
    await expect(other.page.getByLabel(`Saved Comment of ${name}`)).toBeVisible();

    // This page still holds the row as it was: its edit is refused, not written over theirs.
    const mine = page.getByRole('textbox', { name: `Comment of ${name}` });
    await mine.fill('Mine: sent to collections');
    await mine.press('Enter');
    const notice = page.getByRole('alert').filter({ hasText: `Comment of ${name} was not saved` });
    await expect(notice).toContainText(ACH_STALE_EDIT_MESSAGE);
    await expect(notice).toContainText('You entered “Mine: sent to collections”.');
    expect((await current(page, row)).comment).toBe('Theirs: merchant disputes');

    await notice.getByRole('button', { name: 'Reload row' }).click();
    await expect(notice).toBeHidden();
    await expect(mine).toHaveValue('Theirs: merchant disputes');
    // Leaving the cell did not send the refused value again.
    expect((await current(page, row)).comment).toBe('Theirs: merchant disputes');

    // Based on the reloaded row, the edit goes through.
    await mine.fill('Mine, after reading theirs');
    await mine.press('Enter');
    await expect(page.getByLabel(`Saved Comment of ${name}`)).toBeVisible();
    expect((await current(page, row)).comment).toBe('Mine, after reading theirs');
    await other.context.close();
  });

  test('a historic (spreadsheet) row is edited as such', async ({ page }) => {
    const { rows } = await achRows(page, [{ id: 'historic', kind: 'select', values: ['1'] }]);
    const row = rows.find((r) => r.comment === null);
    if (!row) throw new Error('no historic row without a comment');
    const name = `${rowName(row)} (historic)`;
    await page.goto(rowUrl(row));
    await settled(page);
    const comment = page.getByRole('textbox', { name: `Comment of ${name}` });
    await comment.fill('From the old spreadsheet, checked');
    await comment.press('Enter');
    await expect(page.getByLabel(`Saved Comment of ${name}`)).toBeVisible();
    expect((await current(page, row)).comment).toBe('From the old spreadsheet, checked');
    await page.reload();
    await expect(comment).toHaveValue('From the old spreadsheet, checked');
    await page.getByRole('button', { name: `History ${name}` }).click();
    const changes = page
      .getByRole('dialog', { name: `History of ${name}` })
      .getByRole('table', { name: 'Changes' });
    await expect(changes.locator('tbody tr')).toHaveCount(1);
  });

  test('a failed save shows the spec’s message', async ({ page }) => {
    const row = (await freshRows(page))[2];
    if (!row) throw new Error('no row');
    const name = rowName(row);
    await page.goto(rowUrl(row));
    await settled(page);
    const update = `**${achPaths.update}`;
    await page.route(update, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    const comment = page.getByRole('textbox', { name: `Comment of ${name}` });
    await comment.fill('will not stick');
    await comment.press('Enter');
    await expect(page.getByText(ACH_UPDATE_FAILED_MESSAGE)).toBeVisible();
    await expect(comment).toHaveAttribute('aria-invalid', 'true');
    await page.unroute(update);
    expect((await current(page, row)).comment).toBeNull();
  });

  test('the return-rate panel: over a threshold first, counts that the table confirms, click-through', async ({
    page,
  }) => {
    await page.goto('/ach');
    await settled(page);
    const panel = page.getByRole('region', { name: 'Return rates' });
    const rates = panel.getByRole('table', { name: 'Return rates per merchant' });
    await expect(rates.locator('tbody tr').first()).toBeVisible();

    const res = await page.request.post(achPaths.returnRates, { data: { level: 'merchant' } });
    expect(res.status()).toBe(200);
    const answer = (await res.json()) as ReturnRatesAnswer;
    expect(answer.overCount).toBeGreaterThan(0);
    await expect(panel).toContainText(`${answer.overCount.toLocaleString('en-US')} of`);
    // Those over a threshold come first.
    const overFlags = answer.rows.map((r) => r.over.length > 0);
    expect(overFlags).toEqual([...overFlags].sort((a, b) => Number(b) - Number(a)));
    await expect(rates.locator('tbody tr').first().locator('.mantine-Badge-root').first()).toBeVisible();

    // The first merchant's counts, recounted from its rows in the table over the same days.
    const first = answer.rows[0];
    if (!first?.mid) throw new Error('no merchant');
    const window: FilterState[] = [
      { id: 'IndividualIdentificationNumber', kind: 'text', value: first.mid },
      { id: 'EffectiveEntryDATE', kind: 'dateRange', from: answer.from, to: answer.to },
    ];
    const { rows, total } = await achRows(page, window);
    const mine = rows.filter((r) => r.IndividualIdentificationNumber === first.mid);
    const returns = mine.filter((r) => /^R\d\d$/.test(String(r.AddendaRelated)));
    expect(returns.length).toBe(first.returns);
    expect(
      returns.filter((r) => ['R05', 'R07', 'R10', 'R11', 'R29', 'R51'].includes(String(r.AddendaRelated)))
        .length,
    ).toBe(first.unauthorized);
    expect(returns.filter((r) => ['R02', 'R03', 'R04'].includes(String(r.AddendaRelated))).length).toBe(
      first.administrative,
    );
    expect(first.overallRate).toBeCloseTo(first.returns / first.entries, 10);

    // Click-through: the table shows that merchant's returns of the window.
    await rates.getByRole('button', { name: `Show the returns of MID ${first.mid}` }).click();
    await expect(page).toHaveURL(new RegExp(`f\\.IndividualIdentificationNumber=${first.mid}`));
    await expect(page).toHaveURL(new RegExp(`f\\.EffectiveEntryDATE=${answer.from}\\.\\.${answer.to}`));
    await expect(async () => {
      expect(await tableTotal(page)).toBe(total);
      expect(new Set(await tableColumn(page, TABLE, 'MID'))).toEqual(new Set([first.mid]));
    }).toPass();

    // Per ISO: ISOs, and a click shows the ISO's rows.
    await panel.getByText('Per ISO').click();
    const isoRates = panel.getByRole('table', { name: 'Return rates per ISO' });
    await expect(isoRates.locator('tbody tr').first()).toBeVisible();
    const iso = (await isoRates.locator('tbody tr').first().locator('td').first().innerText()).trim();
    await isoRates.getByRole('button', { name: `Show the returns of ${iso}` }).click();
    await expect(page).toHaveURL(/f\.GroupLevel1Name=/);
    await expect(async () =>
      expect(new Set(await tableColumn(page, TABLE, 'ISO'))).toEqual(new Set([iso])),
    ).toPass();
  });

  test('export: every filtered row in the visible columns', async ({ page }) => {
    await page.goto('/ach?f.classification=NOC');
    await settled(page);
    const total = await tableTotal(page);
    expect(total).toBeGreaterThan(0);
    // The table's own columns, without the row actions.
    const headers = (await tableHeaders(page, TABLE)).filter((h) =>
      achTable.columns.some((c) => c.label === h),
    );
    await page.getByRole('button', { name: 'Export XLSX' }).click();
    const modal = page.getByRole('dialog');
    await expect(modal.getByTestId('export-count')).toHaveText(
      `${total.toLocaleString('en-US')} ${total === 1 ? 'row' : 'rows'} will be exported`,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(ACH_EXPORT_FILE);
    const rows = await workbookRows(await download.path());
    expect(rows[0]).toEqual(headers);
    expect(rows.length - 1).toBe(total);
    await expect(modal.getByText(`Downloaded ${ACH_EXPORT_FILE}`)).toBeVisible();
  });
});

test.describe('ACH Returns read-only', () => {
  test.describe(() => {
    test.use({ storageState: sessionOf('sales@paydesk.local') });
    test('without ACH editing: the cells are text, and the server refuses an edit', async ({ page }) => {
      const { rows } = await achRows(page, [{ id: 'comment', kind: 'text', value: 'M' }]);
      const row = rows[0];
      if (!row) throw new Error('no commented row');
      await page.goto(rowUrl(row));
      await settled(page);
      await expect(page.getByText('Editing needs the ACH editing permission')).toBeVisible();
      const table = page.getByRole('table', { name: TABLE, exact: true });
      await expect(table.locator('tbody tr').first()).toBeVisible();
      await expect(table.getByRole('textbox')).toHaveCount(0);
      await expect(table.getByRole('combobox')).toHaveCount(0);
      expect(await tableColumn(page, TABLE, 'Comment')).toContain(String(row.comment));
      // History is for everyone.
      await page.getByRole('button', { name: `History ${rowName(row)}` }).click();
      await expect(page.getByRole('dialog', { name: `History of ${rowName(row)}` })).toBeVisible();

      const res = await page.request.post(achPaths.update, {
        data: {
          unique_key: row.main_unique_key,
          column: 'comment',
          value: 'not mine to change',
          historic: 0,
        },
      });
      expect(res.status()).toBe(403);
      expect((await current(page, row)).comment).toBe(row.comment);
    });
  });

  test.describe(() => {
    test.use({ storageState: sessionOf('partner@summitpayments.example') });
    test('partner staff see their ISO’s returns and rates only, read-only', async ({ page }) => {
      await page.goto('/ach');
      await settled(page);
      expect(new Set(await tableColumn(page, TABLE, 'ISO'))).toEqual(new Set(['Summit Payment Group']));
      const { rows } = await achRows(page, []);
      for (const row of rows) expect(row.GroupLevel1Name).toBe('Summit Payment Group');
      await expect(page.getByRole('table', { name: TABLE, exact: true }).getByRole('textbox')).toHaveCount(0);
      const panel = page.getByRole('region', { name: 'Return rates' });
      const isos = panel.getByText('Per ISO');
      await isos.click();
      await expect(
        panel.getByRole('table', { name: 'Return rates per ISO' }).locator('tbody tr'),
      ).toHaveCount(1);
    });
  });
});

test.describe('Saved ACH reports', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });
  test('saves a view on the ACH calls, loads it back, deletes it; another user does not see it', async ({
    page,
    browser,
  }) => {
    await page.goto('/ach?f.classification=unresolved&f.AddendaRelated=R01');
    await settled(page);
    await page.getByRole('button', { name: /^Columns/ }).click();
    await page.getByRole('checkbox', { name: 'Worked by', exact: true }).check();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/cols=[^&]*workedBy/);
    await expect.poll(() => tableHeaders(page, TABLE)).toContain('Worked by');
    await settled(page);
    const total = await tableTotal(page);
    const name = `Open NSF ${Date.now()}`;
    const saving = page.waitForResponse((r) => r.url().endsWith(achPaths.saveReport));
    await page.getByLabel('Save this view as').fill(name);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await saving).status()).toBe(200);
    await expect(page.getByText('Success', { exact: true })).toBeVisible();

    await page.goto('/ach');
    await settled(page);
    expect(await tableTotal(page)).toBeGreaterThan(total);
    expect(await tableHeaders(page, TABLE)).not.toContain('Worked by');
    await page.getByRole('combobox', { name: 'Saved reports' }).click();
    await page.getByRole('option', { name, exact: true }).click();
    await page.getByRole('button', { name: 'Load' }).click();
    await expect(page).toHaveURL(/f\.classification=unresolved/);
    await expect(page).toHaveURL(/f\.AddendaRelated=R01/);
    await expect(page).toHaveURL(/cols=[^&]*workedBy/);
    await expect(async () => {
      expect(await tableTotal(page)).toBe(total);
      expect(await tableHeaders(page, TABLE)).toContain('Worked by');
    }).toPass();

    // ACH reports are their own list: not among the user's other tables' reports, nor another user's.
    const listed = await page.request.post(achPaths.getAllReports, {
      data: { email: 'admin@paydesk.local' },
    });
    expect(((await listed.json()) as { reportName: string }[]).map((r) => r.reportName)).toContain(name);
    const other = await openAs(browser, 'finance@paydesk.local', '/ach');
    const theirs = await other.page.request.post(achPaths.getAllReports, {
      data: { email: 'finance@paydesk.local' },
    });
    expect(theirs.status()).toBe(200);
    expect(((await theirs.json()) as { reportName: string }[]).map((r) => r.reportName)).not.toContain(name);
    await other.context.close();

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`Report “${name}” deleted`)).toBeVisible();
  });
});

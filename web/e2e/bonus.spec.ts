import {
  addDays,
  type BonusIsoSpec,
  type BonusMatch,
  type BonusRow,
  bonusPaths,
  type ExtraBonusRow,
  jobPaths,
  MONTH_NAMES,
  windowOf,
} from '@paydesk/domain';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { sessionOf, tableColumn, todayClearOfMidnight } from './support';

// The tests read today's date as they run; the file starts clear of a midnight, so none of them straddles one
// (support.ts).
test.beforeAll(async () => {
  await todayClearOfMidnight();
});

async function api<T>(request: APIRequestContext, path: string, data?: unknown): Promise<T> {
  const res = data === undefined ? await request.get(path) : await request.post(path, { data });
  expect(res.status(), `${path} ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

const bonuses = (page: Page, bonusType: 'W' | 'M', date: string) =>
  api<BonusRow[]>(page.request, bonusPaths.getBonus, { bonusType, date });

/** The newest weekly (Thursday) and monthly windows with bonus rows, by the API (the oracle's raw rows). */
async function windowsWithRows(page: Page) {
  const windows = await api<{ weekly: string[] }>(page.request, bonusPaths.windows);
  let weekly: { date: string; rows: BonusRow[] } | null = null;
  for (const date of windows.weekly.slice(0, 30)) {
    const rows = await bonuses(page, 'W', date);
    if (rows.length > 0) {
      weekly = { date, rows };
      break;
    }
  }
  let monthly: { date: string; rows: BonusRow[] } | null = null;
  const today = new Date().toISOString().slice(0, 10);
  for (let back = 0; back < 12 && !monthly; back++) {
    const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - back);
    const date = `${d.toISOString().slice(0, 7)}-20`;
    const rows = await bonuses(page, 'M', date);
    if (rows.length > 0) monthly = { date, rows };
  }
  if (!weekly || !monthly) throw new Error('The demo data has no bonus rows in recent windows');
  return { weekly, monthly };
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Picks a window with the selectors as a user does, then Search. */
async function searchWindow(page: Page, period: 'Weekly' | 'Monthly' | 'Monthly Extra', date: string) {
  const search = page.getByRole('button', { name: 'Search', exact: true });
  await choose(page, 'Period', period);
  await choose(page, 'Year', date.slice(0, 4));
  await choose(page, 'Month', MONTH_NAMES[Number(date.slice(5, 7)) - 1] ?? '');
  if (period === 'Weekly') {
    await choose(page, 'Day', String(Number(date.slice(8, 10))));
  }
  await expect(search).toBeEnabled();
  await search.click();
}

const settled = async (page: Page, table: string) =>
  expect(page.getByRole('table', { name: table, exact: true })).toHaveAttribute('aria-busy', 'false');

/** Waits for the pager to count this many rows (the new window's rows replace the ones shown before). */
const expectTotal = (page: Page, total: number) =>
  expect(page.getByTestId('table-count')).toHaveText(
    total === 0 ? /^No / : new RegExp(` of ${total.toLocaleString('en-US')} `),
  );

const rowName = (row: Pick<BonusRow, 'mid' | 'dba_name'>) => `MID ${row.mid} · ${row.dba_name}`;

/** Runs a window again through the run-now call and waits for its job to finish. */
async function rerun(request: APIRequestContext, kind: 'W' | 'M', date: string) {
  const started = await api<{ jobId: string }>(request, bonusPaths.run, { kind, date });
  await expect
    .poll(
      async () => (await api<{ state: string }>(request, `${jobPaths.status}?id=${started.jobId}`)).state,
      { timeout: 60_000 },
    )
    .toBe('completed');
}

test.describe('Bonus & Clawback as a bonus editor (admin)', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test('a search in each period shows the window’s rows as the API answers them', async ({ page }) => {
    await page.goto('/bonus');
    const { weekly, monthly } = await windowsWithRows(page);

    // The tab opens on the newest monthly window that has run.
    await expect(page.getByRole('combobox', { name: 'Period', exact: true })).toHaveValue('Monthly');
    await settled(page, 'Bonuses');
    // Search is disabled until every needed selector is chosen (spec §5): a weekly search needs a day.
    await choose(page, 'Period', 'Weekly');
    await expect(page.getByRole('combobox', { name: 'Day', exact: true })).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeDisabled();

    await searchWindow(page, 'Weekly', weekly.date);
    await expect(page).toHaveURL(new RegExp(`period=W&date=${weekly.date}`));
    await expectTotal(page, weekly.rows.length);
    await settled(page, 'Bonuses');
    await expect(page.getByTestId('table-count')).toContainText(`1–${Math.min(15, weekly.rows.length)} of`);
    const shownMids = await tableColumn(page, 'Bonuses', 'MID');
    const sorted = [...weekly.rows].slice(0, 15).map((r) => r.mid);
    expect(new Set(shownMids)).toEqual(new Set(sorted));
    // Each row says why (the spec that applied and the rule).
    const firstWhy = weekly.rows[0]?.explanation ?? '';
    expect(firstWhy.length).toBeGreaterThan(10);

    await searchWindow(page, 'Monthly', monthly.date);
    await expect(page).toHaveURL(new RegExp(`period=M&date=${monthly.date}`));
    await expectTotal(page, monthly.rows.length);
    await settled(page, 'Bonuses');
    const window = windowOf('M', monthly.date);
    await expect(page.getByText(`from ${window?.start} to ${window?.end}`)).toBeVisible();

    // Monthly Extra: the month before the current one, with the spec's columns.
    const month = new Date();
    month.setUTCDate(1);
    month.setUTCMonth(month.getUTCMonth() - 1);
    const extraDate = `${month.toISOString().slice(0, 7)}-01`;
    const extra = await api<ExtraBonusRow[]>(page.request, bonusPaths.getExtraBonus, { date: extraDate });
    await searchWindow(page, 'Monthly Extra', extraDate);
    await expectTotal(page, extra.length);
    await settled(page, 'Monthly extra bonuses');
    const headers = await page
      .getByRole('table', { name: 'Monthly extra bonuses' })
      .locator('thead th')
      .allInnerTexts();
    for (const header of [
      'MID',
      'DBA',
      'ISO',
      'Group ID',
      'RM',
      'Sales Rep Name',
      'Profile',
      'Date Opened',
    ]) {
      expect(headers.map((h) => h.trim())).toContain(header);
    }
    for (const header of ['Bonus Date', 'Bonus Type', 'Extra Bonus', 'Reg. Bonus Paid', 'Note']) {
      expect(headers.map((h) => h.trim())).toContain(header);
    }
    // Reg. Bonus Paid by the spec's rule: No when do-not-pay, Yes when the type is Per Deal.
    if (extra.length > 0) {
      const paid = await tableColumn(page, 'Monthly extra bonuses', 'Reg. Bonus Paid');
      expect(paid).toEqual(extra.slice(0, 15).map((r) => r.reg_bonus_paid));
    }
  });

  test('do-not-pay and a note survive a rerun of the window', async ({ page }) => {
    await page.goto('/bonus');
    const { weekly } = await windowsWithRows(page);
    // An unmarked row; else one without a note (an attempt cut short may have marked it do-not-pay already).
    const row = weekly.rows.find((r) => !r.do_not_pay && !r.note) ?? weekly.rows.find((r) => !r.note);
    if (!row) throw new Error('No row without a note in the window');
    await page.goto(`/bonus?period=W&date=${weekly.date}`);
    await settled(page, 'Bonuses');
    await page.getByRole('textbox', { name: 'Search Bonuses' }).fill(row.mid);

    // The box shows the mark once the table's rows are patched and drawn again, a moment after the click (a
    // macrotask later): waited for, not read at once as locator.check() does.
    const box = page.getByRole('checkbox', { name: `Do not pay ${rowName(row)}` });
    if (!row.do_not_pay) await box.click();
    await expect(box).toBeChecked();
    const note = `Checked by e2e ${Date.now()}`;
    await page.getByRole('button', { name: `Note of ${rowName(row)}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Note').fill(note);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();

    await rerun(page.request, 'W', weekly.date);

    const after = (await bonuses(page, 'W', weekly.date)).filter((r) => r.mid === row.mid);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ do_not_pay: true, note });
    await page.reload();
    await settled(page, 'Bonuses');
    await page.getByRole('textbox', { name: 'Search Bonuses' }).fill(row.mid);
    await expect(page.getByRole('checkbox', { name: `Do not pay ${rowName(row)}` })).toBeChecked();
    await page.getByRole('button', { name: `Note of ${rowName(row)}` }).click();
    await expect(page.getByRole('dialog').getByLabel('Note')).toHaveValue(note);
  });

  test('the matches modal lists the earlier bonused merchants at the same address', async ({ page }) => {
    await page.goto('/bonus');
    const items = await api<{ mid: string; bonus_date: string; matches: string }[]>(
      page.request,
      bonusPaths.getMatches,
    );
    // A matched merchant's row: its bonus date is the run date, the day after its window ends.
    let found: { period: 'W' | 'M'; date: string; row: BonusRow } | null = null;
    for (const item of items.slice(0, 20)) {
      for (const period of ['W', 'M'] as const) {
        const window = windowOf(period, addDays(item.bonus_date, -1));
        if (!window || window.runDate !== item.bonus_date) continue;
        const date = period === 'W' ? window.start : window.end;
        const row = (await bonuses(page, period, date)).find((r) => r.mid === item.mid);
        if (row && row.match_count > 0) found = { period, date, row };
      }
      if (found) break;
    }
    if (!found) throw new Error('No matched bonus row in the demo data');
    const matches = await api<(BonusMatch & { for_mid: string })[]>(
      page.request,
      bonusPaths.getMatchesByMid,
      {
        mids: [found.row.mid],
      },
    );
    expect(matches.length).toBe(found.row.match_count);

    await page.goto(`/bonus?period=${found.period}&date=${found.date}`);
    await settled(page, 'Bonuses');
    await page.getByRole('textbox', { name: 'Search Bonuses' }).fill(found.row.mid);
    await page.getByRole('button', { name: `Matches of ${rowName(found.row)}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Matches found' });
    await expect(dialog.getByRole('table', { name: 'Matches found' }).locator('tbody tr')).toHaveCount(
      matches.length,
    );
    const mids = await dialog
      .getByRole('table', { name: 'Matches found' })
      .locator('tbody td:first-child')
      .allInnerTexts();
    expect(new Set(mids.map((m) => m.trim()))).toEqual(new Set(matches.map((m) => m.mid)));
    const clawed = matches.filter((m) => m.clawed_back === 1).length;
    await expect(dialog.getByText('Yes', { exact: true })).toHaveCount(clawed);
  });

  test('a bonus specification added with force, edited and deleted, each in the activity log', async ({
    page,
  }) => {
    const list = (period: 'W' | 'M') =>
      api<BonusIsoSpec[]>(page.request, bonusPaths.getBonusIsoList, { profile: 'PL', period });
    // An ISO with a Monthly PayLo spec: a Weekly spec for its group IDs overlaps it (one spec per group ID).
    const monthly = (await list('M')).find((s) => s.iso_name !== null);
    if (!monthly?.iso_name) throw new Error('No named Monthly PayLo bonus spec');
    const iso = monthly.iso_name;
    await page.goto('/bonus?tab=specifications&spec=bonus');
    const table = page.getByRole('table', { name: 'Included ISOs' });
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByRole('radio', { name: 'Weekly' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'PayLo' })).toBeChecked();

    await page.getByRole('button', { name: 'Add bonus' }).click();
    const dialog = page.getByRole('dialog');
    // Not addable: a group ID that is no ISO's is an error that force cannot pass.
    await dialog.getByLabel('ISO').fill(iso);
    await page.getByRole('option', { name: iso, exact: true }).click();
    const groups = await dialog.getByLabel('Group IDs').inputValue();
    expect(groups).not.toBe('');
    await dialog.getByLabel('Group IDs').fill(`${groups}, NOSUCHGROUP`);
    await dialog.getByLabel('Bonus', { exact: true }).fill('175');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Not saved');
    await expect(dialog.getByRole('alert')).toContainText('NOSUCHGROUP');
    await expect(dialog.getByRole('button', { name: 'Yes, save' })).toHaveCount(0);

    // Addable: the group IDs already have a spec; the warning's Yes resubmits with force.
    await dialog.getByLabel('Group IDs').fill(groups);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Save anyway?');
    await dialog.getByRole('button', { name: 'Yes, save' }).click();
    await expect(dialog).toBeHidden();
    const added = (await list('W')).find((s) => s.iso_name === iso);
    expect(added).toMatchObject({ amount: '175.00', on_activation: false, placement_only: false });
    expect((await list('M')).some((s) => s.iso_name === iso)).toBe(false);
    const key = added?.group_id ?? '';
    // The table shows the group IDs spaced ("410004, 410005").
    const row = () => table.getByRole('row').filter({ hasText: key.split(',').join(', ') });
    await expect(row()).toContainText('$175.00');

    // Edit: Placement Only forces the bonus to 0 and pay on approval.
    await page.getByRole('button', { name: `Edit ${iso}`, exact: true }).click();
    await expect(dialog.getByLabel('Bonus', { exact: true })).toHaveValue('175');
    await dialog.getByLabel('Placement Only').check();
    await expect(dialog.getByLabel('Bonus', { exact: true })).toHaveValue('0');
    await expect(dialog.getByLabel('Bonus', { exact: true })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(row()).toContainText('$0.00');
    expect((await list('W')).find((s) => s.iso_name === iso)).toMatchObject({
      amount: '0.00',
      placement_only: true,
    });

    // Delete asks first.
    await page.getByRole('button', { name: `Delete ${iso}`, exact: true }).click();
    await expect(page.getByRole('dialog')).toContainText('Are you sure?');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(row()).toHaveCount(0);
    expect((await list('W')).some((s) => s.iso_name === iso)).toBe(false);

    // The three changes are the newest entries of the activity log, by this user.
    await page.getByRole('tab', { name: 'Activity Logs' }).click();
    const log = page.getByRole('table', { name: 'Activity log' });
    await expect(log).toHaveAttribute('aria-busy', 'false');
    const descriptions = (await log.locator('tbody tr td:nth-child(3)').allInnerTexts()).slice(0, 3);
    expect(descriptions[0]).toMatch(/^Deleted the Weekly PayLo bonus spec/);
    expect(descriptions[1]).toMatch(/^Edited the Weekly PayLo bonus spec/);
    expect(descriptions[2]).toMatch(/^Added the Weekly PayLo bonus spec/);
    for (const text of descriptions) expect(text).toContain(key);
    const users = (await log.locator('tbody tr td:nth-child(2)').allInnerTexts()).slice(0, 3);
    for (const user of users) expect(user.trim()).toBe('admin@paydesk.local');
  });
});

test.describe('Bonus runs (admin)', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test('previews the next monthly window without saving it', async ({ page }) => {
    await page.goto('/bonus');
    const preview = await api<{
      window: { start: string; end: string; runDate: string };
      bonuses: unknown[];
    }>(page.request, bonusPaths.preview, { kind: 'M' });
    await page.getByRole('button', { name: 'Runs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bonus runs' });
    await dialog.getByText('Monthly', { exact: true }).click();
    await expect(dialog.getByRole('radio', { name: 'Monthly', exact: true })).toBeChecked();
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog).toContainText(
      `${preview.window.start} to ${preview.window.end}, run on ${preview.window.runDate}`,
    );
    await expect(dialog).toContainText(
      `${preview.bonuses.length} ${preview.bonuses.length === 1 ? 'bonus' : 'bonuses'}`,
    );
    // Nothing was saved: the window's rows are still none.
    const saved = await bonuses(page, 'M', preview.window.end);
    expect(saved).toHaveLength(0);
  });
});

test.describe('Bonus & Clawback without the bonus editing permission', () => {
  test.use({ storageState: sessionOf('sales@paydesk.local') });

  test('reads every tab but cannot mark rows or edit specifications', async ({ page }) => {
    await page.goto('/bonus');
    const { weekly } = await windowsWithRows(page);
    await page.goto(`/bonus?period=W&date=${weekly.date}`);
    await settled(page, 'Bonuses');
    const first = weekly.rows[0] as BonusRow;
    await page.getByRole('textbox', { name: 'Search Bonuses' }).fill(first.mid);
    await expect(page.getByRole('checkbox', { name: `Do not pay ${rowName(first)}` })).toBeDisabled();
    await page.goto('/bonus?tab=specifications&spec=clawback');
    await expect(page.getByRole('table', { name: 'Clawback specifications' })).toHaveAttribute(
      'aria-busy',
      'false',
    );
    await expect(page.getByRole('button', { name: 'Add clawback' })).toHaveCount(0);
    // The server refuses the change as well.
    const res = await page.request.post(bonusPaths.updateDoNotPay, { data: { id: first.id, do_not_pay: 1 } });
    expect(res.status()).toBe(403);
  });
});

test.describe('Bonus & Clawback as partner staff (bound to Summit Payment Group)', () => {
  test.use({ storageState: sessionOf('partner@summitpayments.example') });

  test('sees its own ISO’s rows only, and no specifications or activity log', async ({ page }) => {
    await page.goto('/bonus');
    await expect(page.getByRole('tab')).toHaveText(['Bonuses', 'Clawbacks', 'Activation']);
    await settled(page, 'Bonuses');
    const isos = await tableColumn(page, 'Bonuses', 'ISO');
    expect(isos.length).toBeGreaterThan(0);
    for (const iso of isos) expect(iso).toBe('Summit Payment Group');
    await page.getByRole('tab', { name: 'Activation' }).click();
    await settled(page, 'Activation');
    for (const iso of await tableColumn(page, 'Activation', 'ISO')) expect(iso).toBe('Summit Payment Group');
    // The server refuses the specifications to partner staff whatever the screen shows.
    const res = await page.request.get(bonusPaths.getClawbackList);
    expect(res.status()).toBe(403);
  });
});

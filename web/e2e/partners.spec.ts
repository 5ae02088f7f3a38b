import fs from 'node:fs';
import { XLSX_MIME } from '@paydesk/domain';
import { PARTNER_ROWS_PER_PAGE, type PartnerDirectoryRow } from '@paydesk/domain/contracts/partners';
import { expect, type Page, test } from '@playwright/test';
import { sessionOf } from './support';

/** The accounts of the accordion page shown, by name. */
async function accordionAccounts(page: Page): Promise<string[]> {
  const controls = page.locator('.mantine-Accordion-control');
  return (await controls.allInnerTexts()).map((t) => t.split('\n')[0]?.trim() ?? '');
}

/** The rows the server lists, grouped by account in order (the oracle for paging). */
async function directory(page: Page): Promise<Map<string, number>> {
  const res = await page.request.post('/api/partner', { data: {} });
  expect(res.status()).toBe(200);
  const rows = (await res.json()) as PartnerDirectoryRow[];
  const counts = new Map<string, number>();
  for (const row of rows) {
    const groups = row.groupid === null && row.groupname === null ? 0 : 1;
    counts.set(row.accountname, (counts.get(row.accountname) ?? 0) + groups);
  }
  for (const [name, n] of counts) counts.set(name, Math.max(1, n));
  return counts;
}

test.describe('Partners as an editor (sales_admin with partner editing)', () => {
  test.use({ storageState: sessionOf('sales.admin@paydesk.local') });

  test('the search reading: accordion with status badges, an account’s fields and groups, search', async ({
    page,
  }) => {
    await page.goto('/partner');
    await expect(page.getByRole('radio', { name: 'Search' })).toBeChecked();
    const first = page.locator('.mantine-Accordion-control').first();
    await expect(first).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import XLSX' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Export XLSX' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import from Salesforce' })).toBeVisible();
    // Every badge reads one of the three shown statuses.
    const badges = await page.locator('.mantine-Accordion-control .mantine-Badge-label').allInnerTexts();
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) expect(['ACTIVE', 'INACTIVE', 'DEAD']).toContain(badge.toUpperCase());

    const name = (await accordionAccounts(page))[0] ?? '';
    await first.click();
    const panel = page.locator('.mantine-Accordion-panel').first();
    for (const label of [
      'RM',
      'Recruiter',
      'ISC',
      'Liability',
      'Date Signed',
      'Full Name',
      'Operations Email',
    ]) {
      await expect(panel.getByText(label, { exact: true })).toBeVisible();
    }
    const groups = page.getByRole('table', { name: `Groups of ${name}` });
    await expect(groups.locator('thead th')).toHaveText([
      'Group Name',
      'Group ID',
      'Bank',
      'Profile',
      'Processor',
      'Effective Date',
    ]);

    // The search applies a second after typing stops, and is kept in the URL; empty text brings the list back.
    await page.getByRole('textbox', { name: 'Search' }).fill('Summit');
    await expect(page).toHaveURL(/q=Summit/);
    // The list shown before the search stays until the searched one has come back and rendered.
    await expect
      .poll(async () => {
        const shown = await accordionAccounts(page);
        return shown.length > 0 && shown.every((account) => /Summit/i.test(account));
      })
      .toBe(true);
    const found = await accordionAccounts(page);
    for (const account of found) expect(account).toMatch(/Summit/i);
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page).not.toHaveURL(/q=/);
    await expect.poll(async () => (await accordionAccounts(page)).length).toBeGreaterThan(found.length);
  });

  test('pages of at most 60 rows made of whole accounts, every account once', async ({ page }) => {
    await page.goto('/partner');
    const counts = await directory(page);
    const seen: string[] = [];
    for (let n = 1; n <= 20; n++) {
      await expect(page.getByRole('button', { name: `Page ${n}`, exact: true })).toHaveAttribute(
        'data-active',
        'true',
      );
      const accounts = await accordionAccounts(page);
      const rows = accounts.reduce((sum, a) => sum + (counts.get(a) ?? 0), 0);
      expect(rows).toBeLessThanOrEqual(PARTNER_ROWS_PER_PAGE);
      await expect(page.getByTestId('partner-count')).toContainText(`${rows} rows on this page`);
      seen.push(...accounts);
      const next = page.getByRole('button', { name: 'Next page' });
      if (await next.isDisabled()) break;
      await next.click();
    }
    // Every account on exactly one page (never split, never repeated), in the server's order.
    expect(seen).toEqual([...counts.keys()]);
  });

  test('the table reading: columns, status pill, detail card, rev share edit and cancel, history', async ({
    page,
  }) => {
    await page.goto('/partner');
    // Mantine's segmented control keeps its radios visually hidden: click the label, as a user does.
    await page.getByRole('radiogroup', { name: 'Reading' }).getByText('Table', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Table' })).toBeChecked();
    await expect(page).toHaveURL(/view=table/);
    const table = page.getByRole('table', { name: 'Partners', exact: true });
    await expect(table.locator('thead th')).toHaveText([/Account Name/, /Status/, /Name/, /RM/]);
    const names = (await table.locator('tbody tr td:first-child').allInnerTexts()).map((t) => t.trim());
    expect(names.length).toBe(15);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));

    const name = names[0] ?? '';
    await page.getByRole('checkbox', { name: `Show details of ${name}` }).check();
    const card = page.getByRole('region', { name: `Details of ${name}` });
    for (const label of ['Recruiter', 'ISC', 'Liability', 'Date Signed', 'Address', 'Operations Email']) {
      await expect(card.getByText(label, { exact: true })).toBeVisible();
    }
    const groups = card.getByRole('table', { name: `Groups of ${name}` });
    await expect(groups.locator('thead th')).toHaveText([
      'Group Name',
      'Group ID',
      'Association',
      'Rev Share',
      'Bank',
      'Processor',
      'Effective Date',
      'History',
    ]);
    const groupId = (await groups.locator('tbody tr td:nth-child(2)').first().innerText()).trim();
    const cell = card.getByRole('textbox', { name: `Rev share of group ${groupId}` });
    const before = await cell.inputValue();

    // Cancel restores the saved value.
    await cell.fill('12.5');
    await card.getByRole('button', { name: `Cancel Rev share of group ${groupId}` }).click();
    await expect(cell).toHaveValue(before);

    // Out of bounds: refused before sending, with the reason on the red icon.
    await cell.fill('150');
    await card.getByRole('button', { name: `Save Rev share of group ${groupId}` }).click();
    await expect(
      card.getByRole('button', { name: /Not saved: Rev share must be between 0 and 100/ }),
    ).toBeVisible();

    // Saved: stored as a fraction, shown ×100, kept in the history.
    const target = before === '42.25' ? '41.75' : '42.25';
    await cell.fill(target);
    await card.getByRole('button', { name: `Save Rev share of group ${groupId}` }).click();
    await expect(card.getByRole('button', { name: `Save Rev share of group ${groupId}` })).toBeHidden();
    await expect(cell).toHaveValue(target);
    const history = card.getByRole('table', { name: `Rev share history of group ${groupId}` });
    await expect(history.locator('tbody tr').first()).toContainText(`${target}%`);
    const stored = await page.request.get(`/api/partners/GetPartners`);
    const row = ((await stored.json()) as { groupid: string | null; rev_share: number | null }[]).find(
      (r) => r.groupid === groupId,
    );
    expect(row?.rev_share).toBeCloseTo(Number(target) / 100, 10);
    await page.reload();
    await page.getByRole('checkbox', { name: `Show details of ${name}` }).check();
    await expect(page.getByRole('textbox', { name: `Rev share of group ${groupId}` })).toHaveValue(target);
  });

  test('Add Group ID allocates the next ID of the bank and shows the new group', async ({ page }) => {
    await page.goto('/partner?view=table');
    const table = page.getByRole('table', { name: 'Partners', exact: true });
    const name = (await table.locator('tbody tr td:first-child').first().innerText()).trim();
    await page.getByRole('checkbox', { name: `Show details of ${name}` }).check();
    const card = page.getByRole('region', { name: `Details of ${name}` });
    const groups = card.getByRole('table', { name: `Groups of ${name}` });
    // Counted once the account's groups have loaded, not while the card is still fetching them.
    await expect(groups.locator('tbody tr').first()).toBeVisible();
    const before = await groups.locator('tbody tr').count();
    await card.getByRole('button', { name: 'Add Group ID' }).click();
    const modal = page.getByRole('dialog', { name: 'Add Group ID' });
    await expect(modal.getByLabel('Group Name')).toHaveValue(name);
    await expect(modal.getByLabel('Rev Share')).not.toHaveValue('');
    // Required fields are said so, and nothing is sent.
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal.getByText('Bank is required')).toBeVisible();
    await expect(modal.getByText('Effective date is required')).toBeVisible();
    await modal.getByLabel('Group Name').fill(`${name} E2E`);
    await modal.getByRole('combobox', { name: 'Bank' }).click();
    await page.getByRole('option', { name: 'Esquire', exact: true }).click();
    await modal.getByLabel('Effective Date').fill('2026-11-01');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toBeHidden();
    const notice = page.locator('.mantine-Notification-root').filter({ hasText: /Group ID \d+ added/ });
    await expect(notice).toContainText(/association \d+/);
    const groupId = /Group ID (\d+) added/.exec(await notice.innerText())?.[1] ?? '';
    await expect(groups.locator('tbody tr')).toHaveCount(before + 1);
    await expect(groups.getByRole('cell', { name: groupId, exact: true })).toBeVisible();

    // The new ID heads the Esquire tab of Last Utilized Group IDs.
    await page.getByRole('button', { name: 'Last Utilized Group IDs' }).click();
    const last = page.getByRole('dialog', { name: 'Last Utilized Group IDs' });
    await expect(last.getByRole('tab')).toHaveText(['CBCAL', 'Esquire', 'Chesapeake']);
    await last.getByRole('tab', { name: 'Esquire' }).click();
    const esquire = last.getByRole('table', { name: 'Last utilized group IDs, Esquire' });
    await expect(esquire.locator('thead th')).toHaveText(['Group Name', 'Group ID', 'Association']);
    await expect(esquire.locator('tbody tr').first()).toContainText(groupId);
  });

  test('Import from Salesforce shows its progress and ends with the spec’s message', async ({ page }) => {
    await page.goto('/partner');
    const button = page.getByRole('button', { name: 'Import from Salesforce' });
    await button.click();
    // While the job runs the buttons are disabled (it may already be done on a fast machine).
    await expect(
      page.getByText('Partners successfully imported from the Salesforce').or(page.getByText('Importing...')),
    ).toBeVisible();
    await expect(page.getByText('Partners successfully imported from the Salesforce')).toBeVisible({
      timeout: 30_000,
    });
    await expect(button).toBeEnabled();
    await expect(page.locator('.mantine-Accordion-control').first()).toBeVisible();
  });

  test('Export XLSX gives Partners.xlsx with one row per account, and Import XLSX takes it back', async ({
    page,
  }) => {
    await page.goto('/partner');
    const accounts = (await directory(page)).size;
    await page.getByRole('button', { name: 'Export XLSX' }).click();
    const modal = page.getByRole('dialog');
    await expect(modal.getByTestId('export-count')).toHaveText(`${accounts} rows will be exported`);
    await expect(modal.getByRole('table', { name: 'Export preview' }).locator('tbody tr')).toHaveCount(10);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Partners.xlsx');
    const buffer = fs.readFileSync(await download.path());
    await modal.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Import XLSX' }).click();
    const importer = page.getByRole('dialog', { name: 'Import partners from XLSX' });
    await importer
      .locator('input[type=file]')
      .setInputFiles({ name: 'Partners.xlsx', mimeType: XLSX_MIME, buffer });
    await importer.getByRole('button', { name: 'Import' }).click();
    await expect(importer.getByText('Success', { exact: true })).toBeVisible();
  });
});

test.describe('Partners as a non-editor', () => {
  test.use({ storageState: sessionOf('sales@paydesk.local') });

  test('reads and exports, but has no editing and no Import XLSX', async ({ page }) => {
    await page.goto('/partner');
    await expect(page.locator('.mantine-Accordion-control').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Import XLSX' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Export XLSX' })).toBeVisible();
    await page.goto('/partner?view=table');
    await expect(page.getByRole('button', { name: 'Last Utilized Group IDs' })).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Partners', exact: true });
    const name = (await table.locator('tbody tr td:first-child').first().innerText()).trim();
    await page.getByRole('checkbox', { name: `Show details of ${name}` }).check();
    const card = page.getByRole('region', { name: `Details of ${name}` });
    await expect(card.getByRole('table', { name: `Groups of ${name}` })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Add Group ID' })).toHaveCount(0);
    await expect(card.getByRole('textbox', { name: /Rev share of group/ })).toHaveCount(0);
    await expect(card.getByLabel(/Rev share of group/).first()).toHaveText(/%$/);
  });
});

test.describe('Partners as partner staff', () => {
  test.use({ storageState: sessionOf('partner@summitpayments.example') });

  test('sees only Summit Payment Group, in both readings', async ({ page }) => {
    await page.goto('/partner');
    await expect.poll(() => accordionAccounts(page)).toEqual(['Summit Payment Group']);
    // Import from Salesforce is everyone's (spec §4).
    await expect(page.getByRole('button', { name: 'Import from Salesforce' })).toBeVisible();
    await page.goto('/partner?view=table');
    const table = page.getByRole('table', { name: 'Partners', exact: true });
    await expect(table.locator('tbody tr td:first-child')).toHaveText(['Summit Payment Group']);
  });
});

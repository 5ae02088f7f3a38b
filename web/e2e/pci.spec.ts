import fs from 'node:fs';
import {
  adminPaths,
  MONTH_NAMES,
  PCI_FILTERS,
  PCI_MESSAGES,
  type PciBillingRow,
  type PciBillingRun,
  type PciFee,
  type PciHistoricMerchant,
  type PciMerchant,
  type PciRevShare,
  pciPaths,
  type UserRow,
} from '@paydesk/domain';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  adminApi,
  freshUser,
  sessionOf,
  signIn,
  tableColumn,
  tableTotal,
  todayClearOfMidnight,
} from './support';

/** The tabs of a user who holds every PCI capability. */
const EVERY_TAB = ['Merchants', 'Billing', 'Commissions', 'Old Merchants', 'Config'];

async function api<T>(request: APIRequestContext, path: string, data?: unknown): Promise<T> {
  const res = data === undefined ? await request.get(path) : await request.post(path, { data });
  expect(res.status(), `${path} ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

async function settled(page: Page, table: string) {
  await expect(page.getByRole('table', { name: table, exact: true })).toHaveAttribute('aria-busy', 'false');
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

// This month (a UTC month, as the server's), read as the file starts, clear of a midnight (support.ts).
let thisYear = 0;
let thisMonth = 0;
/** The month before this one: billed and processed by the demo data. */
let lastMonth = { year: 0, month: 0 };
test.beforeAll(async () => {
  const today = await todayClearOfMidnight();
  thisYear = Number(today.slice(0, 4));
  thisMonth = Number(today.slice(5, 7));
  lastMonth = thisMonth === 1 ? { year: thisYear - 1, month: 12 } : { year: thisYear, month: thisMonth - 1 };
});

async function pickMonth(page: Page, month: { year: number; month: number }) {
  await choose(page, 'Year', String(month.year));
  await choose(page, 'Month', MONTH_NAMES[month.month - 1] ?? '');
}

test.describe('PCI Compliance with every PCI capability (admin)', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test('Merchants: every merchant in the program, compliance in words, bank numbers unmasked for an editor', async ({
    page,
  }) => {
    const merchants = await api<PciMerchant[]>(page.request, pciPaths.getMerchants);
    expect(merchants.length).toBeGreaterThan(0);
    await page.goto('/pci');
    await expect(page.getByRole('tab')).toHaveText(EVERY_TAB);
    await settled(page, 'PCI merchants');
    expect(await tableTotal(page)).toBe(merchants.length);
    const compliance = await tableColumn(page, 'PCI merchants', 'Compliance Status');
    expect(new Set(compliance)).toEqual(new Set(['Compliant', 'Non-Compliant']));
    const mids = await tableColumn(page, 'PCI merchants', 'MID');
    const first = merchants.find((m) => m.mid === mids[0]);
    expect(first?.tr).toMatch(/^\d{9}$/);
    expect(await tableColumn(page, 'PCI merchants', 'T/R')).toContain(first?.tr);
  });

  test('Billing: nothing loads until a month is chosen; a billed month shows its rows', async ({ page }) => {
    const rows = await api<PciBillingRow[]>(page.request, pciPaths.getBilling, lastMonth);
    expect(rows.length).toBeGreaterThan(0);
    await page.goto('/pci?tab=billing');
    await expect(page.getByText('Choose a month to see its billing.')).toBeVisible();
    await expect(page.getByRole('table', { name: 'PCI billing', exact: true })).toHaveCount(0);
    await pickMonth(page, lastMonth);
    await settled(page, 'PCI billing');
    expect(await tableTotal(page)).toBe(rows.length);
    await expect(page.getByTestId('pci-billing-run')).toContainText('Billed ');

    // A month long past that was never run cannot be billed now (the server refuses it too).
    await pickMonth(page, { year: 2022, month: 1 });
    await expect(page.getByTestId('pci-billing-run')).toContainText('Only the current or the previous month');
    await expect(page.getByRole('button', { name: 'Run ACH Billing File' })).toBeDisabled();
  });

  test('Run ACH Billing File: a valid NACHA file downloads, the billing reloads, a second run gives the same file', async ({
    page,
  }) => {
    const month = { year: thisYear, month: thisMonth };
    expect(
      (await api<{ run: PciBillingRun | null }>(page.request, pciPaths.billingRun, month)).run,
    ).toBeNull();
    await page.goto('/pci?tab=billing');
    await pickMonth(page, month);
    await expect(page.getByTestId('pci-billing-run')).toContainText('has not been billed yet');
    await page.getByRole('button', { name: 'Run ACH Billing File' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run ACH Billing File' });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      dialog.getByRole('button', { name: 'Run and download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('ACHBilling.txt');
    const file = fs.readFileSync(await download.path(), 'ascii');
    const records = file.split(/\r?\n/).filter((line) => line.length > 0);
    expect(records.every((r) => r.length === 94)).toBe(true);
    expect(records.length % 10).toBe(0);
    expect(records[0]?.[0]).toBe('1');
    const entries = records.filter((r) => r[0] === '6');

    const { run } = await api<{ run: PciBillingRun | null }>(page.request, pciPaths.billingRun, month);
    expect(run?.entries).toBe(entries.length);
    const cents = entries.reduce((sum, r) => sum + Number(r.slice(29, 39)), 0);
    expect(cents).toBe(Math.round(Number(run?.total_debit) * 100));
    // The billing reloads with the rows the run wrote.
    await settled(page, 'PCI billing');
    expect(await tableTotal(page)).toBe(entries.length);
    await expect(page.getByTestId('pci-billing-run')).toContainText(`${entries.length} debits`);

    const [again] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download ACHBilling.txt again' }).click(),
    ]);
    expect(fs.readFileSync(await again.path(), 'ascii')).toBe(file);
    expect((await api<PciBillingRow[]>(page.request, pciPaths.getBilling, month)).length).toBe(
      entries.length,
    );
  });

  test('Commissions: the month chosen, the ISOs’ shares', async ({ page }) => {
    const rows = await api<unknown[]>(page.request, pciPaths.getCommissions, lastMonth);
    expect(rows.length).toBeGreaterThan(0);
    await page.goto('/pci?tab=commissions');
    await expect(page.getByText('Choose a month to see its commissions.')).toBeVisible();
    await pickMonth(page, lastMonth);
    await settled(page, 'PCI commissions');
    expect(await tableTotal(page)).toBe(rows.length);
  });

  test('Old Merchants: Closed to Open asks first; T/R refused shows the banner, a good one saves', async ({
    page,
  }) => {
    const before = await api<PciHistoricMerchant[]>(page.request, pciPaths.getHistoricMerchants);
    const closed = before.find((m) => m.merchant_status === 'C');
    if (!closed) throw new Error('The demo data has no closed old merchant');
    const statusOf = async () =>
      (await api<PciHistoricMerchant[]>(page.request, pciPaths.getHistoricMerchants)).find(
        (m) => m.mid === closed.mid,
      );
    await page.goto(`/pci?tab=oldmerchants&pci_old_merchants.q=${closed.mid}`);
    await settled(page, 'Old merchants');
    expect(await tableTotal(page)).toBe(1);
    const status = page.getByLabel(`Status of MID ${closed.mid}`);
    await expect(status).toHaveValue('C');

    // Cancelled: nothing changes.
    await status.selectOption({ label: 'Open' });
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(PCI_MESSAGES.closedToOpen);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(status).toHaveValue('C');
    expect((await statusOf())?.merchant_status).toBe('C');

    await status.selectOption({ label: 'Open' });
    await dialog.getByRole('button', { name: 'Change to Open' }).click();
    await expect(status).toHaveValue('');
    await expect.poll(async () => (await statusOf())?.merchant_status).toBe('');

    // Open to Closed needs no confirmation.
    await status.selectOption({ label: 'Closed' });
    await expect(dialog).toHaveCount(0);
    await expect.poll(async () => (await statusOf())?.merchant_status).toBe('C');

    // A routing number with a wrong check digit is refused: the banner says so, the stored one stays.
    await page.getByRole('button', { name: `Edit T/R of MID ${closed.mid}` }).click();
    const tr = page.getByLabel(`T/R of MID ${closed.mid}`, { exact: true });
    await tr.fill('011000016');
    await tr.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: PCI_MESSAGES.inlineEditFailed })).toBeVisible();
    expect((await statusOf())?.aba_number).toBe(closed.aba_number);
    await tr.fill('011000015');
    await tr.press('Enter');
    await expect.poll(async () => (await statusOf())?.aba_number).toBe('011000015');
  });

  test('Config › Fees: an exception group added, refused while empty, saved, and Reset reloads', async ({
    page,
  }) => {
    const groupsOf = (fees: PciFee[]) => new Set(fees.map((f) => f.fee_group)).size;
    const stored = groupsOf(await api<PciFee[]>(page.request, pciPaths.getFees));
    await page.goto('/pci?tab=config');
    await page.getByRole('tab', { name: 'Fees' }).click();
    await expect(page.getByRole('group', { name: /^Fee exception \d+$/ })).toHaveCount(stored);
    const n = stored + 1;

    await page.getByRole('button', { name: 'Add fee exception' }).click();
    await page.getByRole('button', { name: 'Save fee exceptions' }).click();
    await expect(page.getByText(PCI_MESSAGES.emptyFields)).toBeVisible();

    await choose(page, `Fee exception ${n} flag`, 'NCF · Non-Compliance Fee');
    await page.getByLabel(`Fee exception ${n} amount`).fill('45.50');
    await page.getByLabel(`Fee exception ${n} ISO cost`).fill('12');
    const state = PCI_FILTERS.find((f) => f.field === 'state');
    await choose(page, `Fee exception ${n} filter 1 field`, state?.alias ?? 'State');
    await expect(page.getByRole('combobox', { name: `Fee exception ${n} filter 1 operator` })).toHaveValue(
      'In',
    );
    await page.getByRole('combobox', { name: `Fee exception ${n} filter 1 values` }).click();
    const option = page
      .getByRole('listbox', { name: `Fee exception ${n} filter 1 values` })
      .getByRole('option')
      .first();
    const value = (await option.innerText()).split(' · ')[0]?.trim() ?? '';
    await option.click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save fee exceptions' }).click();
    await expect(page.getByText(PCI_MESSAGES.saved)).toBeVisible();

    const saved = await api<PciFee[]>(page.request, pciPaths.getFees);
    expect(groupsOf(saved)).toBe(n);
    const added = saved.filter((f) => f.fee_group === n);
    expect(added).toEqual([
      expect.objectContaining({
        fee_flag: 'NCF',
        amount: '45.50',
        iso_cost: '12.00',
        filter_id: state?.id,
        filter_operator_id: 1,
        filter_value: value,
      }),
    ]);

    // Unsaved groups go on Reset.
    await page.getByRole('button', { name: 'Add fee exception' }).click();
    await expect(page.getByRole('group', { name: /^Fee exception \d+$/ })).toHaveCount(n + 1);
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByRole('group', { name: /^Fee exception \d+$/ })).toHaveCount(n);
  });

  test('Config › Billing Types: the default saved; a date filter offers the date operators, Between takes two dates', async ({
    page,
  }) => {
    type Frequency = {
      id: number;
      frequency: string;
      filter_id: number;
      filter_value: string;
      filter_operator_id: number;
      frequency_group: number;
    };
    const stored = await api<Frequency[]>(page.request, pciPaths.getFrequencies);
    const n = new Set(stored.map((f) => f.frequency_group)).size + 1;
    await page.goto('/pci?tab=config');
    await expect(page.getByRole('tab', { name: 'Billing Types' })).toHaveAttribute('aria-selected', 'true');

    await choose(page, 'Default billing type', 'ANF · Annual Fee');
    await page.getByRole('button', { name: 'Save default' }).click();
    await expect(page.getByText(PCI_MESSAGES.saved)).toBeVisible();
    expect(await api<{ frequency: string }[]>(page.request, pciPaths.getDefaultFrequencies)).toEqual([
      { frequency: 'ANF' },
    ]);
    await choose(page, 'Default billing type', 'MTF · Monthly Fee');
    await page.getByRole('button', { name: 'Save default' }).click();
    await expect
      .poll(
        async () =>
          (await api<{ frequency: string }[]>(page.request, pciPaths.getDefaultFrequencies))[0]?.frequency,
      )
      .toBe('MTF');

    await page.getByRole('button', { name: 'Add billing type exception' }).click();
    await choose(page, `Billing type exception ${n} billing type`, 'ANF · Annual Fee');
    const opened = PCI_FILTERS.find((f) => f.field_type === 'date');
    await choose(page, `Billing type exception ${n} filter 1 field`, opened?.alias ?? 'Date Opened');
    await page.getByRole('combobox', { name: `Billing type exception ${n} filter 1 operator` }).click();
    await expect(page.getByRole('option')).toHaveText(['Before', 'On or After', 'Between']);
    await page.getByRole('option', { name: 'Between', exact: true }).click();
    await page.getByLabel(`Billing type exception ${n} filter 1 from`).fill('2024-01-01');
    await page.getByLabel(`Billing type exception ${n} filter 1 to`).fill('2024-06-30');
    await page.getByRole('button', { name: 'Save billing type exceptions' }).click();
    await expect(
      page.getByRole('region', { name: 'Billing type exceptions' }).getByText(PCI_MESSAGES.saved),
    ).toBeVisible();
    const saved = await api<Frequency[]>(page.request, pciPaths.getFrequencies);
    expect(saved.filter((f) => f.frequency_group === n)).toEqual([
      expect.objectContaining({
        frequency: 'ANF',
        filter_id: opened?.id,
        filter_operator_id: 5,
        filter_value: '2024-01-01|2024-06-30',
      }),
    ]);

    // Removed again, as a user would: remove the group and save.
    await page.getByRole('button', { name: `Remove billing type exception ${n}`, exact: true }).click();
    await page.getByRole('button', { name: 'Save billing type exceptions' }).click();
    await expect
      .poll(async () => (await api<Frequency[]>(page.request, pciPaths.getFrequencies)).length)
      .toBe(stored.length);
  });

  test('Config › Rev Shares: a share added, then deleted after "Are you sure?"', async ({ page }) => {
    const shares = await api<PciRevShare[]>(page.request, pciPaths.getPciRevShares);
    const partners = await api<{ iso_name: string }[]>(page.request, pciPaths.getPartners);
    const iso =
      partners.find((p) => !shares.some((s) => s.iso_name === p.iso_name))?.iso_name ?? partners[0]?.iso_name;
    if (!iso) throw new Error('No ISOs');
    const effective = `${thisYear + 1}-01-01`;
    await page.goto('/pci?tab=config');
    await page.getByRole('tab', { name: 'Rev Shares' }).click();
    const add = page.getByRole('button', { name: 'Add rev share' });
    await expect(add).toBeDisabled();
    await page.getByRole('combobox', { name: 'ISO' }).fill(iso);
    await page.getByRole('option', { name: iso, exact: true }).click();
    await page.getByLabel('Rev Share %').fill('12.5');
    await page.getByLabel('Effective Date').fill(effective);
    await add.click();
    const remove = page.getByRole('button', {
      name: `Delete the rev share of ${iso} effective ${effective}`,
    });
    await expect(remove).toBeVisible();
    const after = await api<PciRevShare[]>(page.request, pciPaths.getPciRevShares);
    expect(after.find((s) => s.iso_name === iso && s.effective_date.startsWith(effective))?.rev_share).toBe(
      '12.50',
    );

    await remove.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(PCI_MESSAGES.deleteConfirm);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(remove).toHaveCount(0);
    const gone = await api<PciRevShare[]>(page.request, pciPaths.getPciRevShares);
    expect(gone.some((s) => s.iso_name === iso && s.effective_date.startsWith(effective))).toBe(false);
  });
});

test.describe('PCI Compliance without the PCI capabilities (sales)', () => {
  test.use({ storageState: sessionOf('sales@paydesk.local') });

  test('three tabs, masked bank numbers, no billing run; the server refuses the restricted calls', async ({
    page,
  }) => {
    await page.goto('/pci?tab=config');
    await expect(page.getByRole('tab')).toHaveText(['Merchants', 'Billing', 'Commissions']);
    await settled(page, 'PCI merchants');
    const tr = await tableColumn(page, 'PCI merchants', 'T/R');
    expect(tr.filter((t) => t !== '—').every((t) => /^•+\d{4}$/.test(t))).toBe(true);
    await page.getByRole('tab', { name: 'Billing' }).click();
    await pickMonth(page, lastMonth);
    await settled(page, 'PCI billing');
    await expect(page.getByRole('button', { name: 'Run ACH Billing File' })).toHaveCount(0);
    expect((await page.request.get(pciPaths.getHistoricMerchants)).status()).toBe(403);
    expect((await page.request.post(pciPaths.getAchBilling, { data: lastMonth })).status()).toBe(403);
  });
});

test.describe('PCI Compliance with the restricted tabs only (pci_restricted, no fee or old-merchant editing)', () => {
  test('Old Merchants and Config are shown read-only; the server refuses their edits', async ({
    browser,
    baseURL,
  }) => {
    // A user of its own with pci_restricted alone (the demo users' rights stay as they are for other specs).
    const email = await freshUser(baseURL as string, 'finance');
    const admin = await adminApi(baseURL as string);
    const users = (await (await admin.get(adminPaths.users)).json()) as UserRow[];
    const user = users.find((u) => u.email === email);
    if (!user) throw new Error(`${email} was not registered`);
    const granted = await admin.post(adminPaths.updateUser, {
      data: {
        id: user.id,
        department: 'finance',
        capabilities: ['pci_restricted'],
        active: true,
        isoId: null,
      },
    });
    expect(granted.status(), await granted.text()).toBe(200);
    await admin.dispose();
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, email);

    await page.goto('/pci?tab=oldmerchants');
    await expect(page.getByRole('tab')).toHaveText(EVERY_TAB);
    await settled(page, 'Old merchants');
    expect(await tableTotal(page)).toBeGreaterThan(0);
    // The status is text, not a selector; the bank numbers are masked and not editable.
    await expect(page.getByLabel(/^Status of MID /)).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Edit (T\/R|DDA) of / })).toHaveCount(0);
    const tr = await tableColumn(page, 'Old merchants', 'T/R');
    expect(tr.filter((t) => t !== '—').length).toBeGreaterThan(0);
    expect(tr.filter((t) => t !== '—').every((t) => /^•+\d{4}$/.test(t))).toBe(true);

    await page.getByRole('tab', { name: 'Config' }).click();
    await expect(
      page.getByText('Changing the billing types and fees needs the PCI fee editing permission.'),
    ).toBeVisible();
    const billingTypes = page.getByRole('tabpanel', { name: 'Billing Types' });
    await expect(billingTypes.getByRole('combobox', { name: 'Default billing type' })).toBeDisabled();
    await expect(billingTypes.getByRole('button', { name: /^(Save|Add|Reset)/ })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Fees' }).click();
    const fees = page.getByRole('tabpanel', { name: 'Fees' });
    await expect(fees.getByRole('textbox', { name: 'Amount', exact: true })).toBeDisabled();
    await expect(fees.getByRole('combobox', { name: 'Fee exception 1 flag' })).toBeDisabled();
    await expect(fees.getByRole('button', { name: /^(Save|Add|Reset)/ })).toHaveCount(0);
    // Rev shares are pci_restricted's own (docs/security.md): the form is offered, and the server takes it.
    await page.getByRole('tab', { name: 'Rev Shares' }).click();
    await expect(page.getByRole('button', { name: 'Add rev share' })).toBeVisible();
    const shares = await api<PciRevShare[]>(page.request, pciPaths.getPciRevShares);
    const share = shares[0];
    if (!share) throw new Error('The demo data has no PCI rev share');
    const future = { iso_name: share.iso_name, effective_date: `${thisYear + 2}-01-01` };
    await api(page.request, pciPaths.addRevShare, { ...future, rev_share: 10 });
    await api(page.request, pciPaths.deleteRevShare, future);

    // What the screen does not offer, the server refuses.
    const historic = await api<PciHistoricMerchant[]>(page.request, pciPaths.getHistoricMerchants);
    const closed = historic[0];
    if (!closed) throw new Error('The demo data has no old merchant');
    const refused = [
      await page.request.post(pciPaths.updateHistoricMerchantStatus, {
        data: { mid: closed.mid, column: 'merchant_status', value: '' },
      }),
      await page.request.post(pciPaths.updateHistoricMerchantStatus, {
        data: { mid: closed.mid, column: 'aba_number', value: '011000015' },
      }),
      await page.request.post(pciPaths.updateHistoricMerchantStatus, {
        data: { mid: closed.mid, column: 'dda_number', value: '123456789' },
      }),
      await page.request.post(pciPaths.updateDefaultFee, { data: { flag: 'MTF', amount: 1, iso_cost: 0 } }),
      await page.request.post(pciPaths.insertFee, { data: [] }),
      await page.request.post(pciPaths.updateDefaultFrequency, { data: { flag: 'ANF' } }),
      await page.request.post(pciPaths.insertFrequency, { data: [] }),
      await page.request.post(pciPaths.getAchBilling, { data: lastMonth }),
    ];
    expect(refused.map((r) => r.status())).toEqual([403, 403, 403, 403, 403, 403, 403, 403]);
    const after = await api<PciHistoricMerchant[]>(page.request, pciPaths.getHistoricMerchants);
    expect(after.find((m) => m.mid === closed.mid)).toEqual(closed);
    await context.close();
  });
});

test.describe('PCI Compliance as partner staff (bound to Summit Payment Group)', () => {
  test.use({ storageState: sessionOf('partner@summitpayments.example') });

  test("only the ISO's own merchants", async ({ page }) => {
    await page.goto('/pci');
    await expect(page.getByRole('tab')).toHaveText(['Merchants', 'Billing', 'Commissions']);
    await settled(page, 'PCI merchants');
    expect(await tableTotal(page)).toBeGreaterThan(0);
    expect(new Set(await tableColumn(page, 'PCI merchants', 'ISO'))).toEqual(
      new Set(['Summit Payment Group']),
    );
  });
});

import { expect, test } from '@playwright/test';
import { type DemoUser, menu, PASSWORD, sessionOf, signIn, tableColumn, tableTotal } from './support';

const EVERYONE = ['Sales', 'Change Password'];
const ADMIN_ONLY = ['Register', 'Users', 'Audit log', 'Outbox', 'Jobs'];

const cases: Array<[email: DemoUser, extra: string[]]> = [
  ['admin@paydesk.local', ADMIN_ONLY],
  ['sales.admin@paydesk.local', []],
  ['finance.admin@paydesk.local', []],
  ['sales@paydesk.local', []],
  ['finance@paydesk.local', []],
  ['partner@summitpayments.example', []],
];

for (const [email, extra] of cases) {
  test.describe(() => {
    test.use({ storageState: sessionOf(email) });
    test(`menu of ${email}`, async ({ page }) => {
      await page.goto('/sales');
      for (const label of [...EVERYONE, ...extra]) {
        await expect(menu(page).getByRole('link', { name: label, exact: true })).toBeVisible();
      }
      for (const label of ADMIN_ONLY.filter((l) => !extra.includes(l))) {
        await expect(menu(page).getByRole('link', { name: label, exact: true })).toHaveCount(0);
      }
    });
  });
}

test.describe(() => {
  test.use({ storageState: sessionOf('partner@summitpayments.example') });
  test('the partner user sees their ISO on the landing page', async ({ page }) => {
    await page.goto('/sales');
    await expect(page.getByText('Summit Payment Group').first()).toBeVisible();
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('sales.admin@paydesk.local') });
  test('a non-admin cannot use /register: no menu entry, the page refuses, the server refuses', async ({
    page,
  }) => {
    await page.goto('/register');
    await expect(page.getByText(/don.t have access/i)).toBeVisible();
    const res = await page.request.post('/api/app/account/register', {
      data: { email: 'x@paydesk.local', department: 'admin', password: PASSWORD, confirmpassword: PASSWORD },
    });
    expect(res.status()).toBe(403);
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test('an admin registers a user who can then sign in', async ({ page, browser }) => {
    await page.goto('/sales');
    await menu(page).getByRole('link', { name: 'Register', exact: true }).click();
    const email = `registered.${Date.now()}@paydesk.local`;
    const button = page.getByRole('button', { name: 'Register' });
    await expect(button).toBeDisabled();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Department').click();
    await page.getByRole('option', { name: 'Finance', exact: true }).click();
    await page.getByLabel('New password').fill('Welcome-2026!');
    await page.getByLabel('Confirm password').fill('Welcome-2026!');
    await expect(button).toBeEnabled();
    await button.click();
    await expect(page.getByText(`User ${email} registered`)).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue('');

    // Signed out: a new context would otherwise start from this describe's admin session.
    const other = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const newcomer = await other.newPage();
    await signIn(newcomer, email, 'Welcome-2026!');
    await other.close();
  });

  test('register refuses a weak password with the server message', async ({ page }) => {
    await page.goto('/register');
    await page.getByLabel('Email').fill(`weak.${Date.now()}@paydesk.local`);
    await page.getByLabel('Department').click();
    await page.getByRole('option', { name: 'Sales', exact: true }).click();
    await page.getByLabel('New password').fill('weakpassword');
    await page.getByLabel('Confirm password').fill('weakpassword');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(
      page.getByText('Password must contain an uppercase letter, a number and a special character'),
    ).toBeVisible();
  });

  test('an admin grants a capability on the Users screen', async ({ page }) => {
    // A user of its own: a demo user granted BI here would keep it for the other spec files (bi.spec.ts checks
    // that sales@ has no BI).
    const email = `grant.${Date.now()}@paydesk.local`;
    const registered = await page.request.post('/api/app/account/register', {
      data: { email, department: 'sales', password: 'Welcome-2026!', confirmpassword: 'Welcome-2026!' },
    });
    expect(registered.ok()).toBe(true);
    await page.goto('/sales');
    await menu(page).getByRole('link', { name: 'Users', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByRole('button', { name: `Edit ${email}`, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/Business Intelligence/).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Saved ${email}`)).toBeVisible();
    await expect(row.getByText('Business Intelligence')).toBeVisible();
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test('Users: a department is edited in place, a refusal keeps the editor open, and selected users are deactivated', async ({
    page,
  }) => {
    const email = `inline.${Date.now()}@paydesk.local`;
    const registered = await page.request.post('/api/app/account/register', {
      data: { email, department: 'finance', password: 'Welcome-2026!', confirmpassword: 'Welcome-2026!' },
    });
    expect(registered.ok()).toBe(true);
    await page.goto('/users');
    const row = page.getByRole('row').filter({ hasText: email });

    await row.getByRole('button', { name: `Edit Department for ${email}` }).click();
    await row.getByRole('combobox', { name: `Department for ${email}` }).click();
    await page.getByRole('option', { name: 'Sales', exact: true }).click();
    await row.getByRole('button', { name: `Save Department for ${email}` }).click();
    await expect(row.getByRole('button', { name: `Edit Department for ${email}` })).toContainText('Sales');

    // An ISO-bound user may only be in Sales or Finance: the server says so under the input, nothing changes.
    const partner = page.getByRole('row').filter({ hasText: 'partner@summitpayments.example' });
    await partner.getByRole('button', { name: /Edit Department for partner@/ }).click();
    await partner.getByRole('combobox', { name: /Department for partner@/ }).click();
    await page.getByRole('option', { name: 'Admin', exact: true }).click();
    await partner.getByRole('button', { name: /Save Department for partner@/ }).click();
    await expect(
      partner.getByText('A user bound to an ISO can only be in the Sales or Finance department'),
    ).toBeVisible();
    await partner.getByRole('combobox', { name: /Department for partner@/ }).press('Escape');
    await expect(partner.getByRole('button', { name: /Edit Department for partner@/ })).toBeVisible();

    await row.getByRole('checkbox', { name: `Select ${email}` }).check();
    const bar = page.getByRole('group', { name: 'Selected rows' });
    await expect(bar).toContainText('1 selected');
    await bar.getByRole('button', { name: 'Deactivate' }).click();
    await page
      .getByRole('dialog', { name: 'Deactivate users' })
      .getByRole('button', { name: 'Deactivate' })
      .click();
    await expect(row.getByText('Inactive')).toBeVisible();
    await expect(bar).toHaveCount(0);
  });
});

test('the audit log filters by action and shows entries in words', async ({ page }) => {
  await signIn(page, 'admin@paydesk.local');
  await menu(page).getByRole('link', { name: 'Audit log', exact: true }).click();
  const table = page.getByRole('table', { name: 'Audit log', exact: true });
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await page.getByRole('button', { name: 'Filter Action', exact: true }).click();
  const form = page.getByRole('form', { name: 'Filter Action' });
  await form.getByRole('checkbox', { name: 'Signed in', exact: true }).check();
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/f\.action=signin\.success/);
  await expect(page.getByRole('group', { name: 'Filters in force' })).toContainText('Action: Signed in');

  const res = await page.request.post('/api/app/audit/query', {
    data: { filters: [{ id: 'action', kind: 'select', values: ['signin.success'] }], pageSize: 50 },
  });
  const answer = (await res.json()) as { total: number; rows: Array<{ actor: string }> };
  expect(answer.total).toBeGreaterThan(0);
  await expect(async () => {
    expect(await tableTotal(page)).toBe(answer.total);
    const actions = await tableColumn(page, 'Audit log', 'Action');
    expect(actions.length).toBe(Math.min(50, answer.total));
    expect(actions.every((a) => a === 'Signed in')).toBe(true);
    const what = await tableColumn(page, 'Audit log', 'What happened');
    expect(what.every((w) => w === 'Signed in')).toBe(true);
  }).toPass();
  await expect(table.getByText('signin.success')).toHaveCount(0);
});

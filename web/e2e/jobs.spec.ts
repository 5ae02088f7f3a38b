import { expect, type Page, test } from '@playwright/test';
import { menu, sessionOf, tableColumn, tableTotal } from './support';

/**
 * The Jobs screen. The browser tests' server works real jobs and fires real schedules, so the list may be
 * empty or not when a test runs: each test asks the API for the same rows and checks the screen against them.
 */

async function jobsTotal(page: Page, filters: object[] = []): Promise<number> {
  const res = await page.request.post('/api/app/jobs/query', { data: { filters, pageSize: 100 } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

test.describe(() => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test('an admin opens Jobs from the menu and sees the runs, or why there are none', async ({ page }) => {
    await page.goto('/sales');
    await menu(page).getByRole('link', { name: 'Jobs', exact: true }).click();
    await expect(page).toHaveURL(/\/jobs$/);
    await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Jobs', exact: true });
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await expect(async () => {
      const total = await jobsTotal(page);
      if (total === 0) {
        await expect(page.getByText('No background jobs have run yet')).toBeVisible({ timeout: 1000 });
        await expect(page.getByText(/Jobs appear here when e-mails are delivered/)).toBeVisible({
          timeout: 1000,
        });
      } else {
        expect(await tableTotal(page)).toBe(total);
      }
    }).toPass();
  });

  test('filters by state, kept in the URL, and says so when nothing matches', async ({ page }) => {
    await page.goto('/jobs');
    await expect(page.getByRole('table', { name: 'Jobs', exact: true })).toHaveAttribute(
      'aria-busy',
      'false',
    );
    await page.getByRole('button', { name: 'Filter State', exact: true }).click();
    const form = page.getByRole('form', { name: 'Filter State' });
    await form.getByRole('checkbox', { name: 'Failed', exact: true }).check();
    await form.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/f\.state=failed/);
    await expect(page.getByRole('group', { name: 'Filters in force' })).toContainText('State: Failed');

    const failed = [{ id: 'state', kind: 'select', values: ['failed'] }];
    await expect(async () => {
      const total = await jobsTotal(page, failed);
      if (total === 0) {
        await expect(page.getByText('No runs match these filters')).toBeVisible({ timeout: 1000 });
      } else {
        expect(await tableTotal(page)).toBe(total);
        const states = await tableColumn(page, 'Jobs', 'State');
        expect(states.every((s) => s.startsWith('Failed'))).toBe(true);
        // Each failed run offers Run again.
        await expect(page.getByRole('button', { name: /^Run again / })).toHaveCount(states.length, {
          timeout: 1000,
        });
      }
    }).toPass();

    // The filter survives a reload: it is in the address.
    await page.reload();
    await expect(page.getByRole('group', { name: 'Filters in force' })).toContainText('State: Failed');
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('sales@paydesk.local') });

  test('a sales user has no Jobs entry, the page refuses, and so does the server', async ({ page }) => {
    await page.goto('/sales');
    await expect(menu(page).getByRole('link', { name: 'Sales', exact: true })).toBeVisible();
    await expect(menu(page).getByRole('link', { name: 'Jobs', exact: true })).toHaveCount(0);
    await page.goto('/jobs');
    await expect(page.getByText(/don.t have access/i)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Jobs', exact: true })).toHaveCount(0);
    expect((await page.request.post('/api/app/jobs/query', { data: {} })).status()).toBe(403);
    expect(
      (await page.request.post('/api/app/jobs/rerun', { data: { id: crypto.randomUUID() } })).status(),
    ).toBe(403);
  });
});

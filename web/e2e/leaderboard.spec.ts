import { type LeaderboardRow, monthLabel, salesPaths } from '@paydesk/domain';
import { expect, test } from '@playwright/test';
import { menu, sessionOf, todayClearOfMidnight } from './support';

// This month's name, read as the file starts, clear of a midnight (support.ts).
let month = '';
test.beforeAll(async () => {
  month = monthLabel(`${(await todayClearOfMidnight()).slice(0, 7)}-01`);
});

test.describe('Leaderboard', () => {
  test.use({ storageState: sessionOf('sales@paydesk.local') });
  test.beforeEach(async ({ page }) => {
    await page.goto('/sales');
  });

  test('shows this month’s approvals by underwriter and by relationship manager', async ({ page }) => {
    const uw = (await (
      await page.request.post(salesPaths.leaderboardUW, { data: {} })
    ).json()) as LeaderboardRow[];
    const rm = (await (
      await page.request.post(salesPaths.leaderboardRM, { data: {} })
    ).json()) as LeaderboardRow[];
    await menu(page).getByRole('link', { name: 'Leaderboard' }).click();
    await expect(page).toHaveURL(/\/leaderboard$/);

    for (const [title, rows] of [
      [`${month} Approvals by Underwriters`, uw],
      [`${month} Approvals by Relationship Manager`, rm],
    ] as const) {
      const board = page.getByRole('region', { name: title, exact: true });
      await expect(board.getByRole('heading', { name: title })).toBeVisible();
      const chart = board.locator('div[role="img"]');
      await expect(chart).toHaveAttribute(
        'aria-label',
        `${title}: ${rows.map((r) => `${r.Name} ${r.Approved}`).join(', ')}`,
      );
      const top = Math.max(...rows.map((r) => r.Approved));
      await expect(board.getByTestId('leader')).toContainText(`: ${top}`);
      await expect(board).toContainText(
        `${rows.reduce((n, r) => n + r.Approved, 0)} approvals by ${rows.length}`,
      );
    }
  });

  test('explains an empty board and keeps the other one', async ({ page }) => {
    await page.route('**/api/leaderboardRM', (route) => route.fulfill({ json: [] }));
    await page.goto('/leaderboard');
    const rm = page.getByRole('region', { name: `${month} Approvals by Relationship Manager` });
    await expect(rm).toContainText('Nobody has an approval yet this month');
    const uw = page.getByRole('region', { name: `${month} Approvals by Underwriters` });
    await expect(uw.locator('div[role="img"]')).toBeVisible();
  });
});

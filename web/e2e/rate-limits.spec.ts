import { expect, type Page, test } from '@playwright/test';
import { menu, sessionOf } from './support';

/*
 * The browser tests' server runs with RATE_LIMITS=off (playwright.config.ts), so the refusal is played here
 * with the answer the server gives past a limit (server/test/rate-limits.test.ts checks the server's side):
 * what each form must show is the server's message, which says when to try again.
 */
const MESSAGE = 'Too many attempts from your address. Try again in 47 seconds.';

async function refuse(page: Page, path: string) {
  await page.route(`**${path}`, (route) =>
    route.fulfill({
      status: 429,
      headers: { 'retry-after': '47' },
      json: { success: false, message: MESSAGE },
    }),
  );
}

test.describe('signed out', () => {
  test('sign-in shows the refusal', async ({ page }) => {
    await refuse(page, '/api/app/account/signin');
    await page.goto('/login');
    await page.getByLabel('Email').fill('finance@paydesk.local');
    await page.getByLabel('Password').fill('Whatever-1!');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGE);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('forgot password shows the refusal, not the generic failure', async ({ page }) => {
    await refuse(page, '/api/app/account/forgotpassword');
    await page.goto('/forgot');
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
    await page.getByLabel('Email').fill('finance@paydesk.local');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGE);
  });

  test('a reset link whose check is refused is not called invalid, and can be checked again', async ({
    page,
  }) => {
    await refuse(page, '/api/app/account/checkresetpassword');
    await page.goto('/reset?code=a-well-formed-reset-code-0000');
    await expect(page.getByRole('alert')).toHaveText(MESSAGE);
    await expect(page).toHaveURL(/\/reset\?code=/);
    await page.unroute('**/api/app/account/checkresetpassword');
    await page.route('**/api/app/account/checkresetpassword', (route) =>
      route.fulfill({ json: { success: true, message: 'The reset link is valid' } }),
    );
    await refuse(page, '/api/app/account/resetpassword');
    await page.getByRole('button', { name: 'Check the link again' }).click();
    await page.getByLabel('New password').fill('New-Password-2026!');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGE);
  });
});

test.describe('signed in as an admin', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test('register shows the refusal', async ({ page }) => {
    await refuse(page, '/api/app/account/register');
    await page.goto('/sales');
    await menu(page).getByRole('link', { name: 'Register', exact: true }).click();
    await page.getByLabel('Email').fill(`limited.${Date.now()}@paydesk.local`);
    await page.getByLabel('Department').click();
    await page.getByRole('option', { name: 'Finance', exact: true }).click();
    await page.getByLabel('New password').fill('Welcome-2026!');
    await page.getByLabel('Confirm password').fill('Welcome-2026!');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText(MESSAGE);
  });
});

import { expect, test } from '@playwright/test';
import { adminApi, freshUser, PASSWORD, sessionOf, signIn } from './support';

test('forgot password → outbox → reset → sign in with the new password', async ({
  page,
  baseURL,
  browser,
}) => {
  const email = await freshUser(baseURL as string, 'finance');
  await page.goto('/login');
  await page.getByRole('link', { name: /forgot/i }).click();
  await expect(page).toHaveURL(/\/forgot$/);
  // The login form (which has an Email field too) stays up until the forgot screen has loaded.
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('We sent you an email with instructions to reset your password')).toBeVisible();

  // The admin reads the local outbox and follows the link, as a local user would.
  const adminContext = await browser.newContext({ storageState: sessionOf('admin@paydesk.local') });
  const admin = await adminContext.newPage();
  await admin.goto('/sales');
  await admin.getByRole('navigation').getByRole('link', { name: 'Outbox' }).click();
  await admin
    .getByRole('button', { name: `Open e-mail to ${email}: Reset your PayDesk password` })
    .first()
    .click();
  const message = admin.getByRole('dialog');
  // Without SMTP_URL the delivery job keeps it in the local outbox; the open e-mail follows its state.
  await expect(message.getByText('Kept locally', { exact: true })).toBeVisible();
  const link = message.getByRole('link', { name: /\/reset\?code=/ });
  const href = await link.getAttribute('href');
  expect(href).toMatch(/\/reset\?code=/);
  await adminContext.close();

  await page.goto(new URL(href as string).pathname + new URL(href as string).search);
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Password length must be 8 characters or more')).toBeVisible();
  await page.getByLabel('New password').fill('Recovered-2026!');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText(/password has been reset/i)).toBeVisible();

  await signIn(page, email, 'Recovered-2026!');
});

test('the forgot page redirects to /login 8 seconds after success', async ({ page }) => {
  await page.clock.install();
  await page.goto('/forgot');
  await page.getByLabel('Email').fill('nobody-here@paydesk.local');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('We sent you an email with instructions to reset your password')).toBeVisible();
  await page.clock.fastForward(7_000);
  await expect(page).toHaveURL(/\/forgot$/);
  await page.clock.fastForward(1_500);
  await expect(page).toHaveURL(/\/login$/);
});

test('an invalid reset link goes to /login', async ({ page }) => {
  await page.goto('/reset?code=not-a-real-code-at-all-0000');
  await expect(page).toHaveURL(/\/login$/);
});

test('change password: button rules, hint, server message, then sign in again', async ({ page, baseURL }) => {
  const email = await freshUser(baseURL as string);
  await signIn(page, email);
  await page.getByRole('navigation').getByRole('link', { name: 'Change Password' }).click();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(
    page.getByText('min 8 char; atleast one uppercase, lowercase, numeric and special char'),
  ).toBeVisible();
  const button = page.getByRole('button', { name: 'Change password' });
  await expect(button).toBeDisabled();
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password').fill('Changed-2026!');
  await page.getByLabel('Confirm password').fill('Changed-2026?');
  await expect(button).toBeDisabled();
  await page.getByLabel('Confirm password').fill('Changed-2026!');
  await expect(button).toBeEnabled();

  await page.getByLabel('Current password').fill('Wrong-current-1!');
  await button.click();
  await expect(page.getByText('The current password is incorrect')).toBeVisible();

  await page.getByLabel('Current password').fill(PASSWORD);
  await button.click();
  await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
  await signIn(page, email, 'Changed-2026!');

  const api = await adminApi(baseURL as string);
  const audit = await (await api.get('/api/app/audit?page=1&pageSize=50')).json();
  expect(
    audit.rows.some(
      (r: { action: string; subject: string }) => r.action === 'password.change' && r.subject === email,
    ),
  ).toBe(true);
  await api.dispose();
});

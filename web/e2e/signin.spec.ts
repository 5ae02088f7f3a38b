import { expect, test } from '@playwright/test';
import { freshUser, PASSWORD, signIn } from './support';

test.describe('sign-in', () => {
  test('the Login button waits for both fields, the e-mail is lower-cased, success goes to /sales', async ({
    page,
  }) => {
    await page.goto('/login');
    const login = page.getByRole('button', { name: 'Login' });
    await expect(login).toBeDisabled();
    await page.getByLabel('Email').fill('Sales@PayDesk.LOCAL');
    await expect(page.getByLabel('Email')).toHaveValue('sales@paydesk.local');
    await expect(login).toBeDisabled();
    await page.getByLabel('Password').fill(PASSWORD);
    await expect(login).toBeEnabled();
    await login.click();
    await expect(page).toHaveURL(/\/sales$/);
    await expect(page.getByText('sales@paydesk.local').first()).toBeVisible();
  });

  test('loading /login signed out logs no console error (the session probe answers 200)', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const probe = page.waitForResponse((r) => r.url().endsWith('/api/app/account/session'));
    await page.goto('/login');
    expect((await probe).status()).toBe(200);
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('a wrong password shows the server message under the form', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('finance@paydesk.local');
    await page.getByLabel('Password').fill('Not-the-password-1!');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('after 10 failed sign-ins the account is locked and the message says so', async ({
    page,
    baseURL,
  }) => {
    const email = await freshUser(baseURL as string);
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    for (let i = 1; i <= 10; i++) {
      await page.getByLabel('Password').fill(`Wrong-pass-${i}!`);
      await page.getByRole('button', { name: 'Login' }).click();
      await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled();
    }
    await expect(page.getByText(/locked after 10 failed sign-ins/)).toBeVisible();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByText(/locked after 10 failed sign-ins/)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an existing session skips /login', async ({ page }) => {
    await signIn(page, 'finance@paydesk.local');
    await page.goto('/login');
    await expect(page).toHaveURL(/\/sales$/);
  });

  test('a protected page without a session goes to /login', async ({ page }) => {
    await page.goto('/changePassword');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('logout ends the session and goes to /login', async ({ page }) => {
    await signIn(page, 'finance@paydesk.local');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name)).not.toContain('login');
    await page.goto('/sales');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('40 minutes idle signs the user out', async ({ page }) => {
    await page.clock.install();
    await signIn(page, 'finance@paydesk.local');
    // The URL changes before the signed-in layout has mounted and armed its idle timer: wait for the shell.
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.mouse.move(100, 100);
    await page.clock.fastForward('41:00');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('not found', () => {
  test('signed out, an unknown path goes to /login', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/login$/);
  });

  test("signed in, an unknown path shows 404 Couldn't Route", async ({ page }) => {
    await signIn(page, 'sales@paydesk.local');
    await page.goto('/no/such/page');
    await expect(page.getByText("404 Couldn't Route")).toBeVisible();
    await expect(page).toHaveURL(/\/no\/such\/page$/);
  });
});

test.describe('the address npm start prints', () => {
  test('opens the app: signed out it asks to sign in, signed in it shows the Sales dashboard', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const answer = await page.goto('/');
    expect(answer?.status()).toBe(200);
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Email').fill('sales@paydesk.local');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/sales$/);
    await page.goto('/');
    await expect(page.getByText('sales@paydesk.local').first()).toBeVisible();
    expect(errors.filter((e) => !/401/.test(e))).toEqual([]);
  });
});

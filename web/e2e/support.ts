import { type APIRequestContext, expect, type Page, request } from '@playwright/test';
import { E2E_PASSWORD } from './constants';

export const PASSWORD = E2E_PASSWORD;

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/sales$/);
}

/** An API client signed in as the demo admin, for arranging test data. */
export async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const res = await api.post('/api/app/account/signin', { data: { email: 'admin@paydesk.local', password: PASSWORD } });
  expect(res.status()).toBe(200);
  return api;
}

let counter = 0;
/** Registers a fresh user so a test can change its password or lock it without touching the demo users. */
export async function freshUser(baseURL: string, department = 'sales'): Promise<string> {
  const api = await adminApi(baseURL);
  counter += 1;
  const email = `e2e.${Date.now()}.${counter}@paydesk.local`;
  const res = await api.post('/api/app/account/register', {
    data: { email, department, password: PASSWORD, confirmpassword: PASSWORD },
  });
  expect(res.status()).toBe(200);
  await api.dispose();
  return email;
}

export function menu(page: Page) {
  return page.getByRole('navigation');
}

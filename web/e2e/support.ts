import path from 'node:path';
import { todayIso } from '@paydesk/domain';
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import { E2E_PASSWORD } from './constants';

export const PASSWORD = E2E_PASSWORD;

export const DEMO_USERS = [
  'admin@paydesk.local',
  'sales.admin@paydesk.local',
  'finance.admin@paydesk.local',
  'sales@paydesk.local',
  'finance@paydesk.local',
  'partner@summitpayments.example',
] as const;
export type DemoUser = (typeof DEMO_USERS)[number];

/**
 * The saved session of a demo user (cookies and storage, signed in once per run by sessions.setup.ts), for
 * `test.use({ storageState })` or `browser.newContext({ storageState })`. Specs about signing in sign in.
 */
export function sessionOf(email: DemoUser): string {
  const dir = process.env.E2E_SESSIONS_DIR;
  if (!dir) throw new Error('E2E_SESSIONS_DIR is not set: run the browser tests with playwright.config.ts');
  return path.join(dir, `${email}.json`);
}

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
  const res = await api.post('/api/app/account/signin', {
    data: { email: 'admin@paydesk.local', password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return api;
}

const DAY_MS = 86_400_000;

/**
 * Today's UTC date for a spec, read in its `beforeAll` after waiting past a midnight less than `seconds` away, so
 * that none of its tests straddles one. The server's days are UTC days, and the specs compare the screens with the
 * server's answers for today and this month, and with dates worked out here.
 */
export async function todayClearOfMidnight(seconds = 600): Promise<string> {
  const left = DAY_MS - (Date.now() % DAY_MS);
  if (left < seconds * 1000) {
    test.setTimeout(left + 60_000);
    await new Promise((resolve) => setTimeout(resolve, left + 1000));
  }
  return todayIso();
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

// ---------------------------------------------------------------- report tables (reports*.spec.ts)

/** The total a report table's pager shows ('1–10 of 1,787 merchants' → 1787; 'No merchants' → 0). */
export async function tableTotal(page: Page): Promise<number> {
  const text = (await page.getByTestId('table-count').innerText()).trim();
  if (/^No /.test(text)) return 0;
  const match = / of ([\d,]+) /.exec(text);
  if (!match?.[1]) throw new Error(`No total in "${text}"`);
  return Number(match[1].replaceAll(',', ''));
}

/** The header texts of a table, in order. */
export async function tableHeaders(page: Page, table: string): Promise<string[]> {
  const headers = await page
    .getByRole('table', { name: table, exact: true })
    .locator('thead th')
    .allInnerTexts();
  return headers.map((h) => h.trim());
}

/** The cell texts of one column (by header text) on the page shown. */
export async function tableColumn(page: Page, table: string, header: string): Promise<string[]> {
  const index = (await tableHeaders(page, table)).indexOf(header);
  if (index < 0) throw new Error(`No column "${header}" in table "${table}"`);
  const cells = page
    .getByRole('table', { name: table, exact: true })
    .locator(`tbody tr td:nth-child(${index + 1})`);
  return (await cells.allInnerTexts()).map((c) => c.trim());
}

/** '1,234.50' or '-$1,234.50' → 1234.5 or -1234.5 */
export const amount = (text: string) => Number(text.replace(/[$,]/g, ''));

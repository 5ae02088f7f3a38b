import { expect, type Locator, type Page, test } from '@playwright/test';
import { stateName } from '../src/components/usMap/usStates';
import { menu, sessionOf, todayClearOfMidnight } from './support';

const STORAGE_KEY = 'paydesk.isoanalytics.groups';

/** The screen's first call: every partner, every month. */
const ISO_ANALYTICS_ALL = { groups: [] as string[], start: '2016-05-01', end: '' };
// Through this month, read as the file starts, clear of a midnight (support.ts).
test.beforeAll(async () => {
  ISO_ANALYTICS_ALL.end = `${(await todayClearOfMidnight()).slice(0, 7)}-01`;
});

/** The map's answer (output[1]) as merchants per state name, the way the tooltip names a state. */
function stateCounts(answer: {
  output: [unknown, { state: string; cnt: number }[], unknown];
}): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { state, cnt } of answer.output[1]) {
    const name = stateName(state);
    if (name) counts[name] = (counts[name] ?? 0) + cnt;
  }
  return counts;
}

const groupsField = (page: Page) => page.getByRole('combobox', { name: 'ISO / partner groups' });
const chosenGroups = (page: Page) =>
  page.getByRole('region', { name: 'Partner groups' }).locator('.mantine-Pill-label');

async function chooseGroup(page: Page, index: number): Promise<string> {
  await groupsField(page).click();
  const option = page.getByRole('option').nth(index);
  const name = (await option.innerText()).trim();
  await option.click();
  await page.keyboard.press('Escape');
  return name;
}

/**
 * Moves the pointer over the map until its tooltip names a state, and answers the tooltip's text. The map is a
 * canvas; its tooltip is the only place a state's count is written.
 */
async function hoverAState(page: Page, map: Locator): Promise<string> {
  const box = await map.boundingBox();
  if (!box) throw new Error('the map has no box');
  const tooltip = page
    .locator('div')
    .filter({ hasText: /^[A-Z][A-Za-z .]+: [\d,]+ merchants$/ })
    .last();
  for (const [fx, fy] of [
    [0.45, 0.5],
    [0.3, 0.45],
    [0.55, 0.4],
    [0.35, 0.7],
    [0.6, 0.6],
    [0.2, 0.3],
  ] as const) {
    await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
    if (await tooltip.isVisible().catch(() => false)) return (await tooltip.innerText()).trim();
    await page.waitForTimeout(300);
    if (await tooltip.isVisible().catch(() => false)) return (await tooltip.innerText()).trim();
  }
  throw new Error('no state tooltip under the pointer');
}

/** The script files a page loads, by name ('EChart-x1y2.js' → 'EChart'). */
function scriptNames(page: Page): string[] {
  const names: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const file = new URL(response.url()).pathname.split('/').pop() ?? '';
    names.push(file.replace(/-[\w-]{8}\.js$/, ''));
  });
  return names;
}

test('the sign-in page loads neither ECharts nor the map; the ISO analytics screen loads both', async ({
  browser,
}) => {
  const signedOut = await browser.newPage();
  const before = scriptNames(signedOut);
  await signedOut.goto('/login', { waitUntil: 'networkidle' });
  await expect(signedOut.getByRole('button', { name: 'Login' })).toBeVisible();
  expect(before.length).toBeGreaterThan(0);
  expect(before).not.toContain('EChart');
  expect(before).not.toContain('UsMapChart');
  await signedOut.close();

  const context = await browser.newContext({ storageState: sessionOf('admin@paydesk.local') });
  const page = await context.newPage();
  const loaded = scriptNames(page);
  await page.goto('/isoanalytics');
  await expect(page.getByRole('img', { name: 'Map of merchants per state' }).locator('canvas')).toBeVisible();
  expect(loaded).toContain('EChart');
  expect(loaded).toContain('UsMapChart');
  await context.close();
});

test.describe('ISO analytics', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });

  test.beforeEach(async ({ page }) => {
    await page.goto('/sales');
    await menu(page).getByRole('link', { name: 'ISO Analytics' }).click();
    await expect(page).toHaveURL(/\/isoanalytics$/);
  });

  test('the chosen groups are kept in session storage across a reload', async ({ page }) => {
    const first = await chooseGroup(page, 0);
    const second = await chooseGroup(page, 0);
    await expect(chosenGroups(page)).toHaveText([first, second]);
    expect(
      JSON.parse((await page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEY)) ?? 'null'),
    ).toEqual([first, second]);
    await page.reload();
    await expect(chosenGroups(page)).toHaveText([first, second]);
    await expect(page.getByRole('table', { name: 'Partner statistics' }).locator('tbody tr')).toHaveCount(2);
  });

  test('an unreadable stored selection is discarded', async ({ page }) => {
    await page.evaluate((k) => sessionStorage.setItem(k, '{"not":"a list"'), STORAGE_KEY);
    await page.reload();
    await expect(groupsField(page)).toBeVisible();
    await expect(chosenGroups(page)).toHaveCount(0);
    expect(await page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEY)).toBeNull();
  });

  test('the map is drawn and a state’s tooltip gives its count from the data', async ({ page }) => {
    const map = page.getByRole('img', { name: 'Map of merchants per state' });
    await expect(map.locator('canvas')).toBeVisible();
    const answer = await page.request.post('/api/isoanalyticsdata', { data: ISO_ANALYTICS_ALL });
    expect(answer.status()).toBe(200);
    const counts = stateCounts(await answer.json());
    const text = await hoverAState(page, map);
    const match = /^(.+): ([\d,]+) merchants$/.exec(text);
    expect(match, text).not.toBeNull();
    const [, state, count] = match as RegExpExecArray;
    expect(Number(count?.replaceAll(',', '')), `${state} in ${JSON.stringify(counts)}`).toBe(
      counts[state as string] ?? 0,
    );
  });

  test('the stats table pages by 15, 50 or 1000 rows, 15 first', async ({ page }) => {
    const table = page.getByRole('table', { name: 'Partner statistics' });
    await expect(table.locator('tbody tr')).toHaveCount(15);
    await page.getByRole('combobox', { name: 'Rows per page' }).click();
    await expect(page.getByRole('option')).toHaveText(['15', '50', '1000']);
    await page.getByRole('option', { name: '50' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(50);
  });
});

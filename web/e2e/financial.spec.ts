import {
  addMonths,
  type FinAverageAnswer,
  type FinAverageBody,
  financialPaths,
  monthLabel,
} from '@paydesk/domain';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { sessionOf, todayClearOfMidnight } from './support';

// This month, read as the file starts, clear of a midnight (support.ts).
let current = '';
test.beforeAll(async () => {
  current = `${(await todayClearOfMidnight()).slice(0, 7)}-01`;
});
const STORAGE_KEY = 'paydesk.financial.filters';

async function averages(page: Page, body: FinAverageBody): Promise<FinAverageAnswer['output']> {
  const res = await page.request.post(financialPaths.average, { data: body });
  expect(res.status()).toBe(200);
  return ((await res.json()) as FinAverageAnswer).output;
}

/** '46463.18' as the cards write it: '$46,463.18'. */
const dollars = (decimal: string) =>
  `$${Number(decimal).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const chart = (page: Page) => page.getByRole('img', { name: /^Volume by month:/ });

/**
 * The bars drawn on the chart's canvas, as x positions (CSS pixels from the canvas's left edge), found by
 * their colour along one line near the bottom of the plot. The canvas says nothing else about them.
 */
async function barCenters(canvas: Locator): Promise<number[]> {
  return canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const ctx = c.getContext('2d');
    if (!ctx) return [];
    const scale = c.width / c.getBoundingClientRect().width;
    const y = Math.round(c.height - 90 * scale);
    const row = ctx.getImageData(0, y, c.width, 1).data;
    const centers: number[] = [];
    let from = -1;
    for (let x = 0; x <= c.width; x += 1) {
      const i = x * 4;
      // The volume bars: #1c7ed6 and its darker and lighter shades (blue clearly above red and green).
      const blue = x < c.width && (row[i + 2] ?? 0) > 150 && (row[i + 2] ?? 0) - (row[i] ?? 0) > 60;
      if (blue && from < 0) from = x;
      if (!blue && from >= 0) {
        if (x - from > 8) centers.push((from + x - 1) / 2 / scale);
        from = -1;
      }
    }
    return centers;
  });
}

/** The bars once the chart has stopped moving (its animations take a moment). */
async function stableBars(page: Page): Promise<{ canvas: Locator; centers: number[] }> {
  const canvas = chart(page).locator('canvas').first();
  await expect(canvas).toBeVisible();
  let last: number[] = [];
  await expect
    .poll(
      async () => {
        const now = await barCenters(canvas);
        const same =
          now.length > 0 &&
          now.length === last.length &&
          now.every((x, i) => Math.abs(x - (last[i] ?? 0)) < 1);
        last = now;
        return same;
      },
      { intervals: [300, 300, 500, 500, 1000] },
    )
    .toBe(true);
  return { canvas, centers: last };
}

test.describe('Financial dashboard', () => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });
  test.beforeEach(async ({ page }) => {
    await page.goto('/sales');
  });

  test('opens on the 12 month average of all merchants, from the menu', async ({ page }) => {
    await page.getByRole('navigation').getByRole('link', { name: 'Financial' }).click();
    await expect(page).toHaveURL(/\/financial$/);
    await expect(page.getByTestId('average-header')).toHaveText('12 Month Average:');
    const [filtered] = await averages(page, {
      filters: {},
      start: addMonths(current, -12),
      end: addMonths(current, -1),
    });
    await expect(page.getByTestId('avg-volume')).toHaveText(dollars(filtered?.Volume ?? ''));
    await expect(page.getByTestId('avg-income')).toHaveText(dollars(filtered?.Income ?? ''));
    await expect(page.getByTestId('avg-age')).toHaveText(Number(filtered?.Average_Age).toFixed(1));
    await expect(page.getByTestId('avg-volume-share')).toHaveText('100%');
    // The chart opens on 5 months to 1 month before now.
    await expect(chart(page)).toBeVisible();
    const { centers } = await stableBars(page);
    expect(centers).toHaveLength(5);
  });

  test('filters narrow the averages and survive a reload; an unreadable stored selection is dropped', async ({
    page,
  }) => {
    await page.goto('/financial');
    const profile = page.getByRole('combobox', { name: 'Profile' });
    await profile.click();
    await page.getByRole('option', { name: 'PayLo', exact: true }).click();
    await page.keyboard.press('Escape');
    const month = page.getByRole('combobox', { name: 'Open Month' });
    await month.click();
    await page.getByRole('option', { name: 'March', exact: true }).click();
    await page.keyboard.press('Escape');

    const [filtered, all] = await averages(page, {
      filters: { profile: ['PayLo'], omonth: [3] },
      start: addMonths(current, -12),
      end: addMonths(current, -1),
    });
    expect(filtered?.Volume).not.toBe(all?.Volume);
    await expect(page.getByTestId('avg-volume')).toHaveText(dollars(filtered?.Volume ?? ''));
    await expect(page.getByTestId('avg-volume-all')).toHaveText(
      `All-merchant average: ${dollars(all?.Volume ?? '')}`,
    );

    await page.reload();
    const filters = page.getByRole('region', { name: 'Filters' });
    await expect(filters.getByText('PayLo', { exact: true })).toBeVisible();
    await expect(filters.getByText('March', { exact: true })).toBeVisible();
    await expect(page.getByTestId('avg-volume')).toHaveText(dollars(filtered?.Volume ?? ''));

    // A broken stored selection is discarded silently: all merchants again, no error.
    await page.evaluate((key) => sessionStorage.setItem(key, '{"omonth":["not a month"'), STORAGE_KEY);
    await page.reload();
    await expect(page.getByTestId('avg-volume')).toHaveText(dollars(all?.Volume ?? ''));
    await expect(page.getByTestId('filter-summary')).toContainText('All merchants');
    expect(await page.evaluate((key) => sessionStorage.getItem(key), STORAGE_KEY)).toBeNull();

    await page.getByRole('combobox', { name: 'Bank' }).click();
    await page.getByRole('option', { name: 'CBCAL', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByTestId('filter-summary')).toContainText('All merchants');
    await page.reload();
    await expect(page.getByTestId('filter-summary')).toContainText('All merchants');
  });

  test('a bar click averages that month; clicking it again or empty space goes back to 12 months', async ({
    page,
  }) => {
    await page.goto('/financial');
    await expect(page.getByTestId('average-header')).toHaveText('12 Month Average:');
    const { canvas, centers } = await stableBars(page);
    const box = await canvas.boundingBox();
    if (!box) throw new Error('The chart has no box');
    const barY = box.height - 90;

    // The third bar of the opening window: 3 months before now.
    const month = addMonths(current, -3);
    await canvas.click({ position: { x: centers[2] ?? 0, y: barY } });
    await expect(page.getByTestId('average-header')).toHaveText(`${monthLabel(month)} Average:`);
    const [filtered] = await averages(page, { filters: {}, start: month, end: month });
    await expect(page.getByTestId('avg-volume')).toHaveText(dollars(filtered?.Volume ?? ''));
    await expect(page.getByTestId('avg-transactions')).toHaveText(
      Number(filtered?.Transactions).toLocaleString('en-US', { minimumFractionDigits: 2 }),
    );

    // The same bar again: back to 12 months.
    await canvas.click({ position: { x: centers[2] ?? 0, y: barY } });
    await expect(page.getByTestId('average-header')).toHaveText('12 Month Average:');

    // Another bar, then empty space between two bars near the top of the plot.
    await canvas.click({ position: { x: centers[4] ?? 0, y: barY } });
    await expect(page.getByTestId('average-header')).toHaveText(
      `${monthLabel(addMonths(current, -1))} Average:`,
    );
    await canvas.click({ position: { x: ((centers[0] ?? 0) + (centers[1] ?? 0)) / 2, y: 60 } });
    await expect(page.getByTestId('average-header')).toHaveText('12 Month Average:');

    // Zooming out shows more months, and the window stays put when a bar is clicked.
    const now = await canvas.boundingBox();
    if (!now) throw new Error('The chart has no box');
    await page.mouse.move(now.x + now.width / 2, now.y + now.height / 2);
    // One notch at a time, each once the chart has settled: the chart drops wheel events that come too fast.
    await expect
      .poll(
        async () => {
          await page.mouse.wheel(0, 100);
          return (await stableBars(page)).centers.length;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(centers.length);
    const wider = await stableBars(page);
    expect(wider.centers.length).toBeGreaterThan(5);
    await canvas.click({ position: { x: wider.centers[0] ?? 0, y: barY } });
    await expect(page.getByTestId('average-header')).not.toHaveText('12 Month Average:');
    expect((await stableBars(page)).centers).toHaveLength(wider.centers.length);

    // Zooming in stops at five months (from 4 months back to now, as a span).
    // Notch by notch until a notch no longer takes a bar away.
    let shown = wider.centers.length;
    await expect
      .poll(
        async () => {
          await page.mouse.wheel(0, -100);
          const now = (await stableBars(page)).centers.length;
          const stopped = now === shown;
          shown = now;
          return stopped;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect((await stableBars(page)).centers.length).toBeGreaterThanOrEqual(5);

    // The other tabs draw the same months.
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await expect(page.getByRole('img', { name: /^Transactions by month:/ })).toBeVisible();
  });
});

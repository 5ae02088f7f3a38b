import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

/**
 * The sign-in page is the first thing every user waits for. It needs React, react-router, TanStack Query and the
 * part of Mantine it draws; the shell, the screens, zod and the domain barrel load after sign-in. The server may
 * send files uncompressed, so each script is gzipped here to measure what a compressing server would send.
 */
const LOGIN_JS_BUDGET_BYTES = 150_000;

test('the sign-in page loads at most 150 KB of gzipped JavaScript', async ({ page }) => {
  const scripts: Promise<{ url: string; gzipped: number }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(response.body().then((body) => ({ url: response.url(), gzipped: gzipSync(body).length })));
  });
  await page.goto('/login', { waitUntil: 'networkidle' });
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

  const loaded = await Promise.all(scripts);
  const total = loaded.reduce((sum, script) => sum + script.gzipped, 0);
  const listing = loaded
    .sort((a, b) => b.gzipped - a.gzipped)
    .map((script) => `${script.gzipped} ${new URL(script.url).pathname}`)
    .join('\n');
  expect(loaded.length, 'scripts recorded').toBeGreaterThan(0);
  expect(total, `gzipped JavaScript on /login:\n${listing}`).toBeLessThanOrEqual(LOGIN_JS_BUDGET_BYTES);
});

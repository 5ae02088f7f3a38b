import { uploadTypes, XLSX_MIME } from '@paydesk/domain';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { menu, sessionOf } from './support';

for (const email of [
  'admin@paydesk.local',
  'finance.admin@paydesk.local',
  'sales.admin@paydesk.local',
] as const) {
  test.describe(() => {
    test.use({ storageState: sessionOf(email) });
    test(`Upload Data is open to ${email}`, async ({ page }) => {
      await page.goto('/sales');
      await menu(page).getByRole('link', { name: 'Upload Data', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Upload Data' })).toBeVisible();
      for (const type of Object.values(uploadTypes)) {
        await expect(page.getByText(type.label, { exact: true })).toBeVisible();
      }
    });
  });
}

for (const email of ['sales@paydesk.local', 'finance@paydesk.local'] as const) {
  test.describe(() => {
    test.use({ storageState: sessionOf(email) });
    test(`Upload Data is refused to ${email}`, async ({ page }) => {
      await page.goto('/sales');
      await expect(menu(page).getByRole('link', { name: 'Self Serve', exact: true })).toBeVisible();
      await expect(menu(page).getByRole('link', { name: 'Upload Data', exact: true })).toHaveCount(0);
      await page.goto('/uploadfiles');
      await expect(page.getByText("You don't have access to this page")).toBeVisible();
      await expect(page.getByRole('button', { name: 'Import XLSX' })).toHaveCount(0);
    });
  });
}

async function storedCount(page: Page): Promise<number> {
  const text = await page.getByTestId('stored-count').innerText();
  const match = /^([\d,]+) /.exec(text);
  if (!match?.[1]) throw new Error(`No count in "${text}"`);
  return Number(match[1].replaceAll(',', ''));
}

test.describe(() => {
  test.use({ storageState: sessionOf('finance.admin@paydesk.local') });
  test('Adjustments export, edit and import back', async ({ page }) => {
    await page.goto('/uploadfiles');
    await expect(page.getByText(/Adjustments rows stored for/)).toBeVisible();
    const count = await storedCount(page);
    expect(count).toBeGreaterThan(0);
    await expect(page.getByText(uploadTypes.adjustments.replaces)).toBeVisible();

    await page.getByRole('button', { name: 'Export XLSX' }).click();
    let modal = page.getByRole('dialog');
    await expect(modal.getByTestId('export-count')).toHaveText(
      `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'} will be exported`,
    );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      modal.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(
      uploadTypes.adjustments.columns.map((c) => c.header),
    );
    expect(sheet.actualRowCount - 1).toBe(count);
    const amountColumn = uploadTypes.adjustments.columns.findIndex((c) => c.header === 'Amount') + 1;
    sheet.getRow(2).getCell(amountColumn).value = 777.77;
    const edited = Buffer.from(await workbook.xlsx.writeBuffer());
    await modal.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Import XLSX' }).click();
    modal = page.getByRole('dialog');
    await modal
      .locator('input[type=file]')
      .setInputFiles({ name: 'adjustments.xlsx', mimeType: XLSX_MIME, buffer: edited });
    await modal.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(modal.getByRole('status', { name: 'Success' })).toBeVisible();
    await modal.getByRole('button', { name: 'Close' }).click();
    await expect(async () => expect(await storedCount(page)).toBe(count)).toPass();

    await page.getByRole('button', { name: 'Export XLSX' }).click();
    modal = page.getByRole('dialog');
    await expect(modal.getByRole('table', { name: 'Export preview' })).toContainText('777.77');
  });
});

test.describe(() => {
  test.use({ storageState: sessionOf('admin@paydesk.local') });
  test('an upload with a bad row is refused with the row and reason', async ({ page }) => {
    await page.goto('/uploadfiles');
    await page.getByText('ScheduleA', { exact: true }).click();
    await expect(page.getByText('ScheduleA file layout')).toBeVisible();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('ScheduleA');
    sheet.addRow(uploadTypes.schedulea.columns.map((c) => c.header));
    sheet.addRow(['Summit Payment Group', 'Visa', 'Interchange', 10, 0.1, 'not a date']);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    await page.getByRole('button', { name: 'Import XLSX' }).click();
    const modal = page.getByRole('dialog');
    await modal
      .locator('input[type=file]')
      .setInputFiles({ name: 'schedulea.xlsx', mimeType: XLSX_MIME, buffer });
    await modal.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(modal.getByRole('alert', { name: 'Fail' })).toBeVisible();
    await expect(
      modal
        .getByRole('table', { name: 'Problems in the file' })
        .getByRole('row', { name: /^2 EffectiveDate/ }),
    ).toContainText('must be a date');
  });
});

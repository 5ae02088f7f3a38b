import {
  APPROVAL_PAGE_TEXT,
  type ApprovalRow,
  type LeadRecord,
  leadsPaths,
} from '@paydesk/domain/leads/contracts';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { sessionOf } from './support';

/** The RM: a sales user holding the Leads capability in the demo data. */
const RM = 'sales@paydesk.local' as const;
const SHOTS = process.env.LEADS_SHOTS_DIR;

/** A screenshot at 1440×900 when LEADS_SHOTS_DIR is set (to look at every step), nothing otherwise. */
async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

/**
 * A small but real PDF (one page), written with its cross-reference table so any reader accepts it. With `fields`
 * it is a fillable application: each entry a text field (AcroForm) holding its value.
 */
function realPdf(fields: Record<string, string> = {}): Buffer {
  const names = Object.keys(fields);
  const fieldRef = (i: number) => `${5 + i} 0 R`;
  const refs = names.map((_, i) => fieldRef(i)).join(' ');
  const pdfText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R${names.length ? ` /AcroForm << /Fields [${refs}] >>` : ''} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << >> /Contents 4 0 R${names.length ? ` /Annots [${refs}]` : ''} >>`,
    '<< /Length 0 >>\nstream\n\nendstream',
    ...names.map(
      (name, i) =>
        `<< /Type /Annot /Subtype /Widget /FT /Tx /T (${pdfText(name)}) /V (${pdfText(fields[name] ?? '')}) /Rect [50 ${700 - i * 30} 300 ${720 - i * 30}] /P 3 0 R >>`,
    ),
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function getJson<T>(page: Page, path: string, data?: unknown): Promise<T> {
  const res = data === undefined ? await page.request.get(path) : await page.request.post(path, { data });
  expect(res.status(), `${path} ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** A lead nobody has worked on yet: not sent for approval and still on its first step, unsaved. */
async function freshLead(page: Page, skip: ReadonlySet<string> = new Set()): Promise<LeadRecord> {
  const { records } = await getJson<{ records: LeadRecord[] }>(page, leadsPaths.getLeads);
  const { approvals } = await getJson<{ approvals: ApprovalRow[] }>(page, leadsPaths.getApprovals);
  const sent = new Set(approvals.map((a) => a.lead_id));
  const named = new Map<string, number>();
  for (const lead of records) named.set(lead.Name, (named.get(lead.Name) ?? 0) + 1);
  for (const lead of records) {
    // A name no other lead has, so the picker's option is this lead's.
    if (sent.has(lead.Id) || skip.has(lead.Id) || named.get(lead.Name) !== 1) continue;
    const step = await getJson<{ current_step: number }>(page, leadsPaths.getCurrentStep, {
      lead_id: lead.Id,
    });
    const form = await getJson<{ saved: boolean }>(page, leadsPaths.getLead, { lead_id: lead.Id });
    if (step.current_step === 0 && !form.saved) return lead;
  }
  throw new Error('The demo data has no lead left that nobody worked on');
}

async function pickLead(page: Page, lead: LeadRecord) {
  const picker = page.getByRole('combobox', { name: 'Open a lead' });
  await picker.click();
  await picker.fill(lead.Name);
  await page
    .getByRole('option', { name: new RegExp(lead.Name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
    .first()
    .click();
  await expect(page.getByRole('tab', { name: lead.Name })).toHaveAttribute('aria-selected', 'true');
}

/** The approval link the underwriter was e-mailed, read from the admin's Outbox screen as a person would. */
async function approvalLinkFromOutbox(browser: Browser, underwriter: string): Promise<string> {
  const context = await browser.newContext({ storageState: sessionOf('admin@paydesk.local') });
  const admin = await context.newPage();
  await admin.goto('/outbox');
  await admin
    .getByRole('button', { name: new RegExp(`^Open e-mail to ${underwriter}`) })
    .first()
    .click();
  const link = admin.getByRole('dialog').getByRole('link', { name: /\/leads\/app\?id=/ });
  const href = await link.getAttribute('href');
  await context.close();
  expect(href).toMatch(/\/leads\/app\?id=[A-Za-z0-9_-]{20,}$/);
  const url = new URL(href as string);
  return `${url.pathname}${url.search}`;
}

const check = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Checks' }).locator(`tr[data-check="${name}"]`);

async function fillForm(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const field = page.getByRole('textbox', { name: label, exact: true });
    await field.fill(value);
  }
}

async function chooseState(page: Page, label: string, state: string) {
  const field = page.getByRole('combobox', { name: label, exact: true });
  await field.fill(state);
  await page.getByRole('option', { name: state, exact: true }).click();
}

test.describe('Leads, as an RM with the Leads capability', () => {
  test.use({ storageState: sessionOf(RM) });

  test('a lead from the picker through the form, the checks and the e-mailed link to the approval', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/sales');
    await page.getByRole('navigation').getByRole('link', { name: 'Leads' }).click();
    await expect(page).toHaveURL(/\/leads$/);
    await expect(page.getByRole('heading', { name: 'Leads', exact: true })).toBeVisible();
    const lead = await freshLead(page);
    await shot(page, '01-leads');

    // The picker finds it by name, and the lead opens as a closable tab on Enter Information.
    await pickLead(page, lead);
    await expect(page.getByRole('button', { name: 'Save and continue' })).toBeVisible();
    await shot(page, '02-enter-information-prefilled');

    // The domain's rules, with their messages, as the RM leaves a field.
    await fillForm(page, {
      SSN: '123-45',
      'Routing Number': '021000022',
      'Zip Code': '1234',
      DOB: '2020-01-01',
    });
    await page.getByRole('textbox', { name: 'First Name', exact: true }).focus();
    await expect(page.getByText('SSN must be 9 digits, like 123-45-6789')).toBeVisible();
    await expect(
      page.getByText('This is not a valid routing number (its check digit does not match)'),
    ).toBeVisible();
    await expect(page.getByText('Zip code must be 5 digits, or 5+4 like 12345-6789')).toBeVisible();
    await expect(page.getByText('The applicant must be at least 18 years old')).toBeVisible();
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText(/fields? needs? attention before the lead can be saved/)).toBeVisible();
    await shot(page, '03-enter-information-errors');
    // Nothing was saved: the step did not move.
    const stepBefore = await getJson<{ current_step: number }>(page, leadsPaths.getCurrentStep, {
      lead_id: lead.Id,
    });
    expect(stepBefore.current_step).toBe(0);

    await fillForm(page, {
      'First Name': 'Dana',
      'Last Name': 'Whitfield',
      SSN: '212-34-5678',
      DOB: '1979-06-14',
      'Home Address': '18 Orchard Lane',
      City: 'Albany',
      'Zip Code': '12207',
      'Legal Name': 'Whitfield Coffee LLC',
      DBA: 'Whitfield Coffee',
      TIN: '12-3456789',
      'Business Address 1': '400 Broadway',
      'Business City': 'Albany',
      'Business Zip Code': '12207',
      'Routing Number': '021000021',
      'DDA Number': '4001234567',
    });
    await chooseState(page, 'State', 'NY');
    await chooseState(page, 'Business State', 'NY');
    await page.getByRole('button', { name: 'Save and continue' }).click();

    // Saved: Run Validations is the current step.
    const checks = page.getByRole('table', { name: 'Checks' });
    await expect(checks).toBeVisible();
    await shot(page, '04-run-validations-new');

    // The saved form comes back masked; Reveal shows one field in full.
    await page.getByRole('button', { name: /Enter Information/ }).click();
    const ssn = page.getByRole('textbox', { name: 'SSN', exact: true });
    await expect(ssn).toHaveValue('•••-••-5678');
    await expect(page.getByRole('textbox', { name: 'DDA Number', exact: true })).toHaveValue('••••4567');
    await page.getByRole('button', { name: 'Reveal SSN' }).click();
    await expect(ssn).toHaveValue(/^212-?34-?5678$/);
    await shot(page, '05-enter-information-saved-revealed');
    await page.getByRole('button', { name: /Run Validations/ }).click();

    // Send for Approval cannot be opened before the checks finish.
    await expect(page.getByRole('button', { name: 'Continue to Send for Approval' })).toBeDisabled();
    await page.getByRole('button', { name: 'Run all checks' }).click();
    for (const name of ['DataX', 'Match', 'TinCheck', 'Giact'])
      await expect(check(page, name).getByText('Finished', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(check(page, 'DataX').getByRole('button', { name: 'Re-run DataX' })).toBeVisible();
    await shot(page, '06-run-validations-finished');

    // A check's result document downloads as a PDF.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      check(page, 'DataX').getByRole('button', { name: 'Download' }).first().click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(path)).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // LexisNexis: a text file named .pdf is refused by its content and the check is marked stopped…
    const lexis = check(page, 'LexisNexis');
    await lexis.locator('input[type=file]').setInputFiles({
      name: 'lexisnexis.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('This is plain text pretending to be a report.\n'),
    });
    await expect(lexis.getByRole('alert')).toBeVisible();
    await expect(lexis.getByText('Stopped', { exact: true })).toBeVisible();
    await shot(page, '07-lexisnexis-refused');
    // …and a real PDF is taken.
    await lexis.locator('input[type=file]').setInputFiles({
      name: 'lexisnexis.pdf',
      mimeType: 'application/pdf',
      buffer: realPdf(),
    });
    await expect(lexis.getByText('Uploaded', { exact: true })).toBeVisible();
    await expect(lexis.getByRole('alert')).toHaveCount(0);

    // All four automatic checks finished: the step is complete and the lead moves on.
    await page.getByRole('button', { name: 'Continue to Send for Approval' }).click();
    const underwriters = await getJson<{ underwriters: { name: string; email: string }[] }>(
      page,
      leadsPaths.getUnderwriters,
    );
    const underwriter = underwriters.underwriters[0];
    if (!underwriter) throw new Error('No demo user holds the Underwriter capability');
    await page.getByRole('button', { name: 'Send for approval', exact: true }).click();
    await expect(page.getByText('Choose an underwriter')).toBeVisible();
    await page.getByRole('combobox', { name: 'Underwriter' }).click();
    await page
      .getByRole('option', { name: `${underwriter.name} (${underwriter.email})`, exact: true })
      .click();
    await shot(page, '08-send-for-approval');
    await page.getByRole('button', { name: 'Send for approval', exact: true }).click();

    // The Decision step: pending until the underwriter decides.
    const decision = page.getByRole('region', { name: 'Decision' });
    await expect(decision.getByText('Pending', { exact: true })).toBeVisible();
    await shot(page, '09-decision-pending');

    // The underwriter opens the e-mailed link without signing in.
    const link = await approvalLinkFromOutbox(browser, underwriter.email);
    const anonymous = await browser.newContext();
    const uw = await anonymous.newPage();
    await uw.goto(link);
    await expect(uw.getByRole('table', { name: 'Applicant' }).getByText('Dana Whitfield')).toBeVisible();
    await expect(
      uw.getByRole('table', { name: 'Applicant' }).getByText('Whitfield Coffee', { exact: true }),
    ).toBeVisible();
    // Nothing sensitive is on the page.
    const text = await uw.locator('body').innerText();
    for (const secret of ['212-34-5678', '212345678', '4001234567', '021000021', '1979-06-14'])
      expect(text).not.toContain(secret);
    await shot(uw, '10-public-decision-form');
    await uw.getByRole('textbox', { name: 'Comment' }).fill('Checks are clean; approved.');
    await uw.getByRole('button', { name: 'Approve' }).click();
    await expect(uw.getByText(APPROVAL_PAGE_TEXT.sent)).toBeVisible();
    await shot(uw, '11-public-decision-sent');

    // The link works once.
    await uw.goto(link);
    await expect(uw.getByText(APPROVAL_PAGE_TEXT.invalid)).toBeVisible();
    await shot(uw, '12-public-link-used');
    await anonymous.close();

    // Back with the RM: Approved, the CRM account kept, and the form can no longer be saved.
    await page.reload();
    await expect(decision.getByText('Approved', { exact: true })).toBeVisible();
    await expect(decision.getByText('Checks are clean; approved.')).toBeVisible();
    // The lead was converted in the CRM: its account id is kept (a link when the CRM has profile pages).
    const approval = await getJson<{ approval: ApprovalRow }>(page, leadsPaths.getLeadApproval, {
      lead_id: lead.Id,
    });
    const accountId = approval.approval.account_id as string;
    expect(accountId).toMatch(/^001/);
    await expect(decision.getByText(accountId)).toBeVisible();
    await shot(page, '13-decision-approved');
    await page.getByRole('button', { name: /Enter Information/ }).click();
    await expect(page.getByRole('textbox', { name: 'Legal Name', exact: true })).toHaveValue(
      'Whitfield Coffee LLC',
    );
    await expect(page.getByRole('button', { name: 'Save and continue' })).toHaveCount(0);
    await shot(page, '14-enter-information-locked');

    // The approval card on the Leads tab shows the outcome and the CRM profile link; closing the tab.
    await page.getByRole('button', { name: `Close ${lead.Name}` }).click();
    await expect(page.getByRole('tab', { name: lead.Name })).toHaveCount(0);
    const card = page.getByRole('article', { name: 'Approval of Dana Whitfield' }).first();
    await expect(card.getByText('Approved', { exact: true })).toBeVisible();
    await expect(
      approval.approval.crm_url
        ? card.getByRole('link', { name: /CRM profile/ })
        : card.getByText(`CRM account ${accountId}`),
    ).toBeVisible();
    await shot(page, '15-approval-cards');
  });

  test('a fillable application PDF prefills over the CRM’s values; a file not named .pdf is not sent', async ({
    page,
  }) => {
    await page.goto('/leads');
    const lead = await freshLead(page);
    await pickLead(page, lead);
    const firstName = page.getByRole('textbox', { name: 'First Name', exact: true });
    // Before: the CRM's values.
    await expect(firstName).not.toHaveValue('');
    await expect(page.getByText('From the CRM').first()).toBeVisible();
    await page.locator('input[type=file]').setInputFiles({
      name: 'application.pdf',
      mimeType: 'application/pdf',
      buffer: realPdf({
        'First Name': 'Imani',
        legal_name: 'Imani Florist LLC',
        'Routing Number': '011000015',
      }),
    });
    await expect(page.getByText('The application was read; the form shows its values.')).toBeVisible();
    await expect(firstName).toHaveValue('Imani');
    await expect(page.getByRole('textbox', { name: 'Legal Name', exact: true })).toHaveValue(
      'Imani Florist LLC',
    );
    await expect(page.getByRole('button', { name: 'Download application PDF' })).toBeVisible();
    await shot(page, '16-enter-information-application');
    // A file that is not a PDF by name is not sent at all.
    await page.locator('input[type=file]').setInputFiles({
      name: 'application.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('first_name: nobody'),
    });
    await expect(page.getByText('Only a PDF file (.pdf) can be uploaded.')).toBeVisible();
    await expect(firstName).toHaveValue('Imani');
  });

  test('a step after the current one cannot be opened', async ({ page }) => {
    await page.goto('/leads');
    const lead = await freshLead(page);
    await pickLead(page, lead);
    await expect(page.getByRole('button', { name: 'Save and continue' })).toBeVisible();
    // Mantine renders an unreachable step as a disabled button.
    await expect(page.getByRole('button', { name: /Run Validations/ })).toBeDisabled();
    await expect(page.getByRole('button', { name: /Decision/ })).toBeDisabled();
    // And the server refuses to move the lead past its rules.
    const res = await page.request.post(leadsPaths.addCurrentStep, {
      data: { lead_id: lead.Id, current_step: 2, completed: false },
    });
    expect(res.status()).toBe(400);
  });
});

/** A lead sent to an underwriter by the calls the screen makes (the flow itself is the test above). */
async function sentLead(page: Page, browser: Browser): Promise<{ link: string; lead: LeadRecord }> {
  const lead = await freshLead(page);
  await getJson(page, leadsPaths.addLead, {
    lead_id: lead.Id,
    first_name: 'Mara',
    last_name: 'Quintero',
    ssn: '312-45-6789',
    dob: '1985-02-03',
    home_address: '7 Elm Street',
    home_city: 'Trenton',
    home_state: 'NJ',
    home_zip: '08608',
    legal_name: 'Quintero Tacos LLC',
    dba: 'Quintero Tacos',
    business_address_1: '22 State Street',
    business_city: 'Trenton',
    business_state: 'NJ',
    business_zip: '08608',
    aba_number: '021000021',
    dda_number: '99887766',
  });
  await getJson(page, leadsPaths.runChecks, { lead_id: lead.Id, check_name: 'All' });
  await expect
    .poll(
      async () => {
        const answer = await getJson<{ checks: { check_type: string; runtime_status: string | null }[] }>(
          page,
          leadsPaths.getChecks,
          { lead_id: lead.Id },
        );
        return answer.checks.filter((c) => c.runtime_status === 'finished').length;
      },
      { timeout: 30_000 },
    )
    .toBe(4);
  await getJson(page, leadsPaths.addCurrentStep, { lead_id: lead.Id, current_step: 2, completed: false });
  const { underwriters } = await getJson<{ underwriters: { email: string }[] }>(
    page,
    leadsPaths.getUnderwriters,
  );
  const underwriter = underwriters[0]?.email as string;
  await getJson(page, leadsPaths.sendForApproval, {
    lead_id: lead.Id,
    assigned_user: underwriter,
    cc_user: null,
  });
  return { link: await approvalLinkFromOutbox(browser, underwriter), lead };
}

test.describe('the public approval page', () => {
  test.describe('with a link sent by an RM', () => {
    test.use({ storageState: sessionOf(RM) });

    test('a decision that cannot reach the server says so and is not recorded; the link still works', async ({
      page,
      browser,
    }) => {
      test.setTimeout(120_000);
      await page.goto('/leads');
      const { link } = await sentLead(page, browser);
      const anonymous = await browser.newContext();
      const uw = await anonymous.newPage();
      await uw.goto(link);
      await expect(uw.getByRole('table', { name: 'Applicant' }).getByText('Mara Quintero')).toBeVisible();
      await anonymous.setOffline(true);
      await uw.getByRole('button', { name: 'Reject' }).click();
      await expect(uw.getByText(APPROVAL_PAGE_TEXT.error)).toBeVisible();
      await shot(uw, '21-public-error');
      await anonymous.setOffline(false);
      await uw.getByRole('button', { name: 'Try again' }).click();
      await uw.getByRole('textbox', { name: 'Comment' }).fill('TIN does not match the legal name.');
      await uw.getByRole('button', { name: 'Reject' }).click();
      await expect(uw.getByText(APPROVAL_PAGE_TEXT.sent)).toBeVisible();
      await anonymous.close();
      await page.reload();
      const card = page.getByRole('article', { name: 'Approval of Mara Quintero' }).first();
      await expect(card.getByText('Rejected', { exact: true })).toBeVisible();
      await expect(card.getByRole('link', { name: /CRM profile/ })).toHaveCount(0);
    });
  });

  test('an unknown link and a link without an id are refused', async ({ page }) => {
    await page.goto('/leads/app?id=thisIsNotARealApprovalToken_0123456789');
    await expect(page.getByText(APPROVAL_PAGE_TEXT.invalid)).toBeVisible();
    await shot(page, '20-public-invalid');
    await page.goto('/leads/app');
    await expect(page.getByText(APPROVAL_PAGE_TEXT.invalid)).toBeVisible();
    // Outside the session check: no redirect to /login.
    await expect(page).toHaveURL(/\/leads\/app$/);
  });
});

test.describe('Leads without the capability', () => {
  test.use({ storageState: sessionOf('finance@paydesk.local') });

  test('a user without Leads has no menu entry, no screen and no API', async ({ page }) => {
    await page.goto('/sales');
    await expect(
      page.getByRole('navigation').getByRole('link', { name: 'Sales', exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Leads' })).toHaveCount(0);
    await page.goto('/leads');
    await expect(page.getByText("You don't have access to this page")).toBeVisible();
    expect((await page.request.get(leadsPaths.getLeads)).status()).toBe(403);
    expect((await page.request.post(leadsPaths.getLead, { data: { lead_id: 'anything' } })).status()).toBe(
      403,
    );
  });
});

import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { APPROVAL_PAGE_TEXT, CHECK_STALE_AFTER_MS, leadsEndpoints, leadsPaths } from '@paydesk/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { type CheckProvider, SandboxChecks, TinCheckProvider } from '../src/areas/leads/checks';
import { loadConfig } from '../src/config';
import type { Connected, Db } from '../src/db/connect';
import { sandboxLeadId } from '../src/db/seed/leads';
import { jobDefinitions } from '../src/jobs';
import { storeDocument } from '../src/platform/documents';
import type { Jobs } from '../src/platform/jobs';
import { Mailer } from '../src/platform/mailer';
import { piiKeyId, usePiiKeys } from '../src/platform/pii';
import { DDA, DOB, leadForm, ROUTING, SSN, SSN_DIGITS, TIN_DIGITS } from './fixtures/leadForm';
import { Client, startTestJobs, testApp, testDatabase } from './helpers';

/**
 * The leads flow through the API (docs/leads.md): the form's rules, the prefill order, the sensitive fields
 * (encrypted at rest, masked, revealed with an audit entry, never in a list answer, a log line or the audit
 * details), the checks as background jobs with the sandbox's test values, the 15-minute rule on a fake clock,
 * the upload's content check, the approval link's single use and expiry, and who may call what.
 */

// Values that appear nowhere else: searched for in answers, logs, audit details and every leads table.
const SECRETS = [SSN, SSN_DIGITS, DDA, TIN_DIGITS, DOB];

let connected: Connected;
let db: Db;
let app: FastifyInstance;
let jobs: Jobs;
const logLines: string[] = [];
const clients = new Map<string, Client>();
const TIMEOUT_SECONDS = 2;

async function as(email: string) {
  let c = clients.get(email);
  if (!c) {
    c = new Client(app);
    await c.signin(email);
    clients.set(email, c);
  }
  return c;
}
const sales = () => as('sales@paydesk.local');

beforeAll(async () => {
  const key = randomBytes(32);
  usePiiKeys({ current: { id: piiKeyId(key), key }, old: [] });
  connected = await testDatabase();
  db = connected.db;
  const config = loadConfig({ APP_URL: 'http://paydesk.test', LOG_LEVEL: 'trace', RATE_LIMITS: 'off' });
  const capture = { info: (o: unknown, m?: string) => logLines.push(JSON.stringify([o, m])) };
  jobs = await startTestJobs(
    connected,
    {
      definitions: jobDefinitions(
        { ...config, LEADS_CHECK_TIMEOUT_SECONDS: TIMEOUT_SECONDS },
        { checks: checksOf(new SandboxChecks({ minMs: 50, maxMs: 150 })) },
      ),
      work: true,
      log: { info: capture.info, warn: capture.info, error: capture.info },
    },
    config,
  );
  app = await buildApp(
    { db, config, mailer: new Mailer(jobs), jobs },
    { logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } } },
  );
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await jobs?.stop();
  await connected?.close();
});

/** The sandbox, except that Giact's connection breaks for an applicant named "Crash" (a provider's own error). */
function checksOf(sandbox: SandboxChecks) {
  const breaking: CheckProvider = {
    name: 'breaking',
    sandbox: true,
    run: (check, subject, signal) =>
      subject.form.last_name === 'Crash'
        ? Promise.reject(new Error('socket hang up'))
        : sandbox.run(check, subject, signal),
  };
  return { DataX: sandbox, Match: sandbox, TinCheck: sandbox, Giact: breaking };
}

const ok = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

async function waitForChecks(leadId: string) {
  const c = await sales();
  for (let i = 0; i < 200; i++) {
    const answer = ok(await c.post(leadsPaths.getChecks, { lead_id: leadId }));
    const auto = answer.checks.filter((x: { check_type: string }) => x.check_type !== 'LexisNexis');
    if (
      auto.every(
        (x: { runtime_status: string }) => x.runtime_status === 'finished' || x.runtime_status === 'stopped',
      )
    )
      return answer;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('The checks did not end');
}

async function multipart(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append('file', new Blob([file.bytes]), file.name);
  const request = new Request('http://x', { method: 'POST', body: fd });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type') ?? '' };
}

async function upload(c: Client, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) {
  const { body, type } = await multipart(fields, file);
  return app.inject({
    method: 'POST',
    url: leadsPaths.uploadDocument,
    payload: body,
    headers: { 'content-type': type, cookie: cookieOf(c) },
  });
}
const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

async function pdfWithFields(values: Record<string, string>) {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage();
  const f = pdf.getForm();
  let y = 700;
  for (const [name, value] of Object.entries(values)) {
    const field = f.createTextField(name);
    field.setText(value);
    field.addToPage(page, { x: 50, y, width: 300, height: 20 });
    y -= 30;
  }
  return pdf.save();
}

/** Saves a valid form and runs the four checks to the end. */
async function leadWithChecks(n: number, over: Record<string, unknown> = {}) {
  const c = await sales();
  const leadId = sandboxLeadId(n);
  ok(await c.post(leadsPaths.addLead, leadForm(leadId, over)));
  ok(await c.post(leadsPaths.runChecks, { lead_id: leadId, check_name: 'All' }));
  return { leadId, checks: await waitForChecks(leadId) };
}

async function sendForApproval(leadId: string) {
  const c = await sales();
  ok(await c.post(leadsPaths.addCurrentStep, { lead_id: leadId, current_step: 2, completed: false }));
  const sent = ok(
    await c.post(leadsPaths.sendForApproval, {
      lead_id: leadId,
      assigned_user: 'finance.admin@paydesk.local',
      cc_user: 'sales.admin@paydesk.local',
    }),
  );
  const mail = await db
    .selectFrom('outbox')
    .select(['to_address', 'text_body'])
    .where('to_address', '=', 'finance.admin@paydesk.local')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const token = /\/leads\/app\?id=([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1];
  if (!token) throw new Error('No link in the mail');
  return { sent, token };
}

const publicPost = (url: string, body: unknown) =>
  app.inject({
    method: 'POST',
    url,
    payload: body as object,
    headers: { 'content-type': 'application/json' },
  });

describe('who may call the leads API', () => {
  it('refuses users without the Leads capability, partner staff and anonymous callers', async () => {
    const finance = await as('finance@paydesk.local');
    const partner = await as('partner@summitpayments.example');
    for (const c of [finance, partner]) {
      expect((await c.get(leadsPaths.getLeads)).statusCode).toBe(403);
      expect((await c.post(leadsPaths.getLead, { lead_id: sandboxLeadId(1) })).statusCode).toBe(403);
      expect((await c.post(leadsPaths.addLead, leadForm(sandboxLeadId(1)))).statusCode).toBe(403);
    }
    expect((await app.inject({ method: 'GET', url: leadsPaths.getLeads })).statusCode).toBe(401);
  });

  it('lists every CRM lead newest first, exactly as the CRM holds them, with nothing sensitive', async () => {
    const answer = ok(await (await sales()).get(leadsPaths.getLeads));
    const parsed = leadsEndpoints.getLeads.output.parse(answer);
    expect(parsed).toEqual(answer);
    const { rows } = await sql<{ lead_id: string; owner_name: string }>`
      select lead_id, owner_name from crm_leads order by created_date desc, lead_id`.execute(db);
    expect(answer.records.map((r: { Id: string }) => r.Id)).toEqual(rows.map((r) => r.lead_id));
    expect(answer.records[0].Real_Owner_del__c).toBe(rows[0]?.owner_name);
    expect(Object.keys(answer.records[0]).sort()).toEqual(
      ['CreatedDate', 'Company', 'Id', 'Name', 'Real_Owner_del__c', 'Status'].sort(),
    );
  });

  it('sends the kept list again as it was, gzip-compressed to a client that accepts it, until a lead changes', async () => {
    const c = await sales();
    // Enough leads for a list over 64 KB, the size from which a kept answer is sent compressed.
    await sql`insert into crm_leads (lead_id, name, company, status, created_date, owner_name)
      select 'ZzBulk' || n, 'Bulk Lead ' || n, 'Bulk Company ' || n, 'Open', timestamptz '2020-01-01' + n * interval '1 minute',
             'Bulk Owner'
      from generate_series(1, 600) n`.execute(db);
    try {
      const plain = await c.get(leadsPaths.getLeads);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(64 * 1024);
      const rows = await sql<{ lead_id: string }>`
        select lead_id from crm_leads order by created_date desc, lead_id`.execute(db);
      expect(ok(plain).records.map((r: { Id: string }) => r.Id)).toEqual(rows.rows.map((r) => r.lead_id));
      for (let i = 0; i < 2; i++) {
        const zipped = await c.get(leadsPaths.getLeads, { 'accept-encoding': 'gzip, deflate, br' });
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
        expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
        expect((await c.get(leadsPaths.getLeads)).body).toBe(plain.body);
      }
      // A lead renamed in the CRM is in the next answer, compressed or not.
      await sql`update crm_leads set name = 'Renamed Bulk Lead' where lead_id = 'ZzBulk7'`.execute(db);
      const renamed = (body: string) =>
        JSON.parse(body).records.find((r: { Id: string }) => r.Id === 'ZzBulk7')?.Name;
      expect(renamed((await c.get(leadsPaths.getLeads)).body)).toBe('Renamed Bulk Lead');
      const zipped = await c.get(leadsPaths.getLeads, { 'accept-encoding': 'gzip' });
      expect(renamed(gunzipSync(zipped.rawPayload).toString('utf8'))).toBe('Renamed Bulk Lead');
    } finally {
      await sql`delete from crm_leads where lead_id like 'ZzBulk%'`.execute(db);
    }
  });
});

describe('the lead form', () => {
  it('refuses a form that breaks a rule, says why, and saves nothing', async () => {
    const c = await sales();
    const leadId = sandboxLeadId(2);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ssn: '' }, /ssn: SSN is required/],
      [{ ssn: '666-12-3456' }, /not a valid SSN/],
      [{ aba_number: '026009594' }, /check digit/],
      [{ dda_number: '12' }, /4 to 17 digits/],
      [{ home_state: 'ZZ' }, /two-letter US state/],
      [{ business_zip: '1234' }, /Zip code/],
      [{ dob: '2020-01-01' }, /at least 18/],
      [{ tin: '00-1234567' }, /TIN/],
      [{ iso_split: 'lots' }, /ISO Split must be a number/],
    ];
    for (const [over, message] of cases) {
      const res = await c.post(leadsPaths.addLead, leadForm(leadId, over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const saved = await db.selectFrom('lead_forms').select('lead_id').where('lead_id', '=', leadId).execute();
    expect(saved).toEqual([]);
    expect((await c.post(leadsPaths.addLead, leadForm('00QNOSUCHLEAD0000'))).statusCode).toBe(404);
  });

  it('prefills from saved data first, then the application PDF, then the CRM', async () => {
    const c = await sales();
    const leadId = sandboxLeadId(3);
    const crm = await db
      .selectFrom('crm_leads')
      .selectAll()
      .where('lead_id', '=', leadId)
      .executeTakeFirstOrThrow();
    let lead = ok(await c.post(leadsPaths.getLead, { lead_id: leadId }));
    expect(lead.form.first_name).toBe(crm.first_name);
    expect(lead.sources.first_name).toBe('crm');
    expect(lead.form.ssn).toBeNull();

    const pdf = await pdfWithFields({
      'First Name': 'Pdfmaria',
      'Social Security Number': SSN,
      'Routing Number': ROUTING,
      DBA: 'Pdf Bakery',
    });
    const res = await upload(
      c,
      { lead_id: leadId, check_name: 'Application' },
      { name: 'application.pdf', bytes: pdf },
    );
    expect(res.statusCode, res.body).toBe(200);
    lead = ok(await c.post(leadsPaths.getLead, { lead_id: leadId }));
    expect(lead.form.first_name).toBe('Pdfmaria');
    expect(lead.sources.first_name).toBe('application');
    expect(lead.form.last_name).toBe(crm.last_name);
    expect(lead.sources.last_name).toBe('crm');
    expect(lead.form.ssn).toBe('•••-••-4321');
    expect(lead.application_document).toBe(`application-${leadId}.pdf`);

    // The masked SSN sent back unchanged keeps the application's value.
    ok(await c.post(leadsPaths.addLead, leadForm(leadId, { first_name: 'Saved', ssn: lead.form.ssn })));
    lead = ok(await c.post(leadsPaths.getLead, { lead_id: leadId }));
    expect(lead.form.first_name).toBe('Saved');
    expect(lead.sources.first_name).toBe('saved');
    expect(lead.saved).toBe(true);
    const revealed = ok(await c.post(leadsPaths.revealField, { lead_id: leadId, field: 'ssn' }));
    expect(revealed.value).toBe(SSN_DIGITS);
    // A masked value that does not match the one on file is refused.
    const wrong = await c.post(leadsPaths.addLead, leadForm(leadId, { ssn: '•••-••-9999' }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/does not match/);
  });

  it('answers sensitive fields masked, reveals one in full with an audit entry that holds no value', async () => {
    const c = await sales();
    const leadId = sandboxLeadId(4);
    const saved = ok(await c.post(leadsPaths.addLead, leadForm(leadId)));
    expect(saved.step).toEqual({ lead_id: leadId, current_step: 1, completed: false });
    const lead = ok(await c.post(leadsPaths.getLead, { lead_id: leadId }));
    expect(lead.form).toMatchObject({
      ssn: '•••-••-4321',
      dob: '••••-••-••',
      tin: '••-•••4567',
      aba_number: '•••••9593',
      dda_number: '••••4433',
    });
    const before = await db.selectFrom('audit_log').select('id').where('action', '=', 'pii.reveal').execute();
    const dda = ok(await c.post(leadsPaths.revealField, { lead_id: leadId, field: 'dda_number' }));
    expect(dda).toEqual({ field: 'dda_number', value: DDA });
    const after = await db
      .selectFrom('audit_log')
      .select(['subject', 'details', 'actor_email'])
      .where('action', '=', 'pii.reveal')
      .orderBy('id', 'desc')
      .execute();
    expect(after.length).toBe(before.length + 1);
    expect(after[0]).toMatchObject({ subject: `lead ${leadId}`, actor_email: 'sales@paydesk.local' });
    expect(JSON.stringify(after[0]?.details)).not.toContain(DDA);
    expect(
      (
        await (
          await as('finance@paydesk.local')
        ).post(leadsPaths.revealField, { lead_id: leadId, field: 'ssn' })
      ).statusCode,
    ).toBe(403);
  });
});

describe('steps and checks', () => {
  it('keeps the step rules: validations after saving, completion only when the four checks finish', async () => {
    const c = await sales();
    const leadId = sandboxLeadId(5);
    const step = (current_step: number, completed: boolean) =>
      c.post(leadsPaths.addCurrentStep, { lead_id: leadId, current_step, completed });
    expect((await step(1, false)).json().message).toMatch(/Save the lead form/);
    expect((await c.post(leadsPaths.runChecks, { lead_id: leadId, check_name: 'All' })).statusCode).toBe(400);
    ok(await c.post(leadsPaths.addLead, leadForm(leadId)));
    expect((await step(1, true)).statusCode).toBe(400);
    expect((await step(2, false)).json().message).toMatch(/four automatic checks/);
    ok(await c.post(leadsPaths.runChecks, { lead_id: leadId, check_name: 'All' }));
    const checks = await waitForChecks(leadId);
    expect(checks.polling).toBe(false);
    for (const check of checks.checks.filter((x: { check_type: string }) => x.check_type !== 'LexisNexis')) {
      expect(check.runtime_status).toBe('finished');
      expect(check.runtime).toBeGreaterThanOrEqual(0);
      expect(check.document_name).toMatch(/\.pdf$/);
    }
    expect(ok(await c.post(leadsPaths.getCurrentStep, { lead_id: leadId }))).toEqual({
      lead_id: leadId,
      current_step: 1,
      completed: true,
    });
    expect((await step(2, true)).json().message).toMatch(/underwriter/);
    expect((await step(3, false)).statusCode).toBe(400);
    expect(ok(await step(2, false))).toMatchObject({ current_step: 2, completed: false });
    expect((await step(1, false)).json().message).toMatch(/go back/);

    const datax = checks.checks.find((x: { check_type: string }) => x.check_type === 'DataX');
    const doc = ok(await c.post(leadsPaths.downloadDocument, { document_name: datax.document_name }));
    expect(Buffer.from(doc.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('gives the documented sandbox results: Hit finishes with a finding, Fail and Timeout stop', async () => {
    const hit = await leadWithChecks(6, { last_name: 'Hit' });
    for (const check of hit.checks.checks.filter(
      (x: { check_type: string }) => x.check_type !== 'LexisNexis',
    )) {
      expect(check.runtime_status).toBe('finished');
      expect(check.result).toMatch(/record|charged-off|do not match|closed/i);
    }
    const fail = await leadWithChecks(7, { last_name: 'Fail' });
    const failed = fail.checks.checks.find((x: { check_type: string }) => x.check_type === 'Giact');
    expect(failed).toMatchObject({ runtime_status: 'stopped' });
    expect(failed.error_msg).toMatch(/refused/);
    const slow = await leadWithChecks(8, { last_name: 'Timeout' });
    const timedOut = slow.checks.checks.find((x: { check_type: string }) => x.check_type === 'Match');
    expect(timedOut.runtime_status).toBe('stopped');
    expect(timedOut.error_msg).toBe(`Match did not answer within ${TIMEOUT_SECONDS} seconds`);
    expect(
      ok(await (await sales()).post(leadsPaths.getCurrentStep, { lead_id: slow.leadId })).completed,
    ).toBe(false);
  });

  it('stops a check whose provider breaks, without saying more than that', async () => {
    const { checks } = await leadWithChecks(13, { last_name: 'Crash' });
    const giact = checks.checks.find((x: { check_type: string }) => x.check_type === 'Giact');
    expect(giact).toMatchObject({ runtime_status: 'stopped', error_msg: 'Giact could not be reached' });
    const datax = checks.checks.find((x: { check_type: string }) => x.check_type === 'DataX');
    expect(datax.runtime_status).toBe('finished');
  });

  // The check's start is moved back rather than the clock forward: the job workers of this process share its clock,
  // and pg-boss's worker, having polled while the clock was ahead, would wait the difference before polling again.
  it('counts a check started more than 15 minutes ago as stopped, and lets it be re-run', async () => {
    const c = await sales();
    const leadId = sandboxLeadId(9);
    ok(await c.post(leadsPaths.addLead, leadForm(leadId)));
    const startedAt = new Date(Date.now() - CHECK_STALE_AFTER_MS + 60_000);
    await db
      .insertInto('lead_checks')
      .values({
        lead_id: leadId,
        check_type: 'DataX',
        runtime_status: 'started',
        run: 1,
        started_at: startedAt,
      })
      .execute();
    let answer = ok(await c.post(leadsPaths.getChecks, { lead_id: leadId }));
    expect(answer.checks[0]).toMatchObject({ check_type: 'DataX', runtime_status: 'started' });
    expect(answer.polling).toBe(true);
    expect((await c.post(leadsPaths.runChecks, { lead_id: leadId, check_name: 'DataX' })).statusCode).toBe(
      409,
    );
    await db
      .updateTable('lead_checks')
      .set({ started_at: new Date(Date.now() - CHECK_STALE_AFTER_MS - 60_000) })
      .where('lead_id', '=', leadId)
      .execute();
    answer = ok(await c.post(leadsPaths.getChecks, { lead_id: leadId }));
    expect(answer.checks[0]).toMatchObject({
      runtime_status: 'stopped',
      error_msg: 'The check did not finish within 15 minutes',
    });
    expect(answer.polling).toBe(false);
    const rerun = ok(await c.post(leadsPaths.runChecks, { lead_id: leadId, check_name: 'DataX' }));
    expect(rerun.checks[0].runtime_status).toBe('initiated');
  });

  it('takes a real PDF for LexisNexis and refuses anything else by its content, marking the check stopped', async () => {
    const c = await sales();
    const leadId = sandboxLeadId(10);
    ok(await c.post(leadsPaths.addLead, leadForm(leadId)));
    const fake = await upload(
      c,
      { lead_id: leadId, check_name: 'LexisNexis' },
      {
        name: 'report.pdf',
        bytes: new TextEncoder().encode('this is plain text, not a PDF'),
      },
    );
    expect(fake.statusCode).toBe(400);
    expect(fake.json().message).toMatch(/not a valid PDF/);
    let lexis = ok(await c.post(leadsPaths.getChecks, { lead_id: leadId })).checks.find(
      (x: { check_type: string }) => x.check_type === 'LexisNexis',
    );
    expect(lexis).toMatchObject({ runtime_status: 'stopped', error_msg: 'The file is not a valid PDF file' });
    const named = await upload(
      c,
      { lead_id: leadId, check_name: 'LexisNexis' },
      { name: 'report.txt', bytes: await pdfWithFields({}) },
    );
    expect(named.statusCode).toBe(400);
    const report = Buffer.from(await pdfWithFields({ ssn: SSN, dda: DDA }));
    const good = await upload(
      c,
      { lead_id: leadId, check_name: 'LexisNexis' },
      { name: 'report.pdf', bytes: report },
    );
    const name = ok(good).document_name;
    lexis = ok(await c.post(leadsPaths.getChecks, { lead_id: leadId })).checks.find(
      (x: { check_type: string }) => x.check_type === 'LexisNexis',
    );
    expect(lexis).toMatchObject({ runtime_status: 'uploaded', document_name: name, error_msg: null });
    // Kept encrypted at rest: the stored bytes are neither the PDF nor hold its personal data.
    const stored = await db
      .selectFrom('documents')
      .select(['content', 'encrypted'])
      .where('id', '=', Number(name.split('-')[0]))
      .executeTakeFirstOrThrow();
    const storedBytes = Buffer.from(stored.content);
    expect(stored.encrypted).toBe(true);
    expect(storedBytes.includes('%PDF-')).toBe(false);
    expect(storedBytes.includes(report.subarray(0, 64))).toBe(false);
    for (const secret of SECRETS) expect(storedBytes.includes(secret)).toBe(false);
    const download = ok(await c.post(leadsPaths.downloadDocument, { document_name: name }));
    expect(Buffer.from(download.content, 'base64').equals(report)).toBe(true);
    // A report uploaded before encryption (kept in clear) still downloads as it was.
    const owner = await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
    const earlier = await storeDocument(db, {
      owner: owner.id,
      partnerId: null,
      kind: 'lead_upload',
      filename: 'earlier.pdf',
      contentType: 'application/pdf',
      bytes: report,
    });
    const plain = ok(
      await c.post(leadsPaths.downloadDocument, { document_name: `${earlier.id}-${earlier.filename}` }),
    );
    expect(Buffer.from(plain.content, 'base64').equals(report)).toBe(true);
    expect((await c.post(leadsPaths.getChecks, { lead_id: leadId, extra: 1 })).statusCode).toBe(400);
  });
});

describe('approval by the e-mailed link', () => {
  it('mails a single-use link; the public page decides once; approval converts the lead and locks it', async () => {
    const { leadId } = await leadWithChecks(11);
    const c = await sales();
    const refused = await c.post(leadsPaths.sendForApproval, {
      lead_id: leadId,
      assigned_user: 'sales@paydesk.local',
    });
    expect(refused.statusCode).toBe(400);
    const { sent, token } = await sendForApproval(leadId);
    expect(sent.step).toEqual({ lead_id: leadId, current_step: 3, completed: false });
    const cc = await db
      .selectFrom('outbox')
      .select('text_body')
      .where('to_address', '=', 'sales.admin@paydesk.local')
      .execute();
    expect(cc.some((m) => m.text_body.includes(token))).toBe(true);
    const stored = await sql<{ t: string }>`select row_to_json(a)::text as t from lead_approvals a`.execute(
      db,
    );
    expect(stored.rows.some((r) => r.t.includes(token))).toBe(false);

    // The underwriter opens the page: its URL carries the token, which the request log must not keep.
    await app.inject({ method: 'GET', url: `/leads/app?id=${token}` });
    expect(logLines.some((l) => l.includes('/leads/app?id=…'))).toBe(true);
    expect(logLines.some((l) => l.includes(token))).toBe(false);
    const page = await publicPost(leadsPaths.getApproval, { app_id: token });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ first_name: 'Maria', last_name: 'Lopez', dba: 'Lopez Bakery' });
    for (const secret of SECRETS) expect(page.body).not.toContain(secret);

    const decided = await publicPost(leadsPaths.approve, {
      app_id: token,
      approved: 1,
      comment: 'Looks fine',
    });
    expect(decided.json()).toEqual({ success: true, message: APPROVAL_PAGE_TEXT.sent });
    const again = await publicPost(leadsPaths.approve, { app_id: token, approved: 0 });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(APPROVAL_PAGE_TEXT.invalid);
    expect((await publicPost(leadsPaths.getApproval, { app_id: token })).statusCode).toBe(404);

    const crm = await db
      .selectFrom('crm_leads')
      .select(['converted_account_id', 'status'])
      .where('lead_id', '=', leadId)
      .executeTakeFirstOrThrow();
    expect(crm.converted_account_id).toMatch(/^001SBX\d{12}$/);
    // The picker's cached list follows the conversion.
    const listed = ok(await c.get(leadsPaths.getLeads)).records.find((r: { Id: string }) => r.Id === leadId);
    expect(listed.Status).toBe('Converted');
    const approval = ok(await c.post(leadsPaths.getLeadApproval, { lead_id: leadId })).approval;
    expect(approval).toMatchObject({
      approved: 1,
      comment: 'Looks fine',
      account_id: crm.converted_account_id,
    });
    const cards = ok(await c.get(leadsPaths.getApprovals)).approvals;
    expect(cards.find((a: { app_id: number }) => a.app_id === approval.app_id)).toMatchObject({
      approved: 1,
    });
    expect(ok(await c.post(leadsPaths.getCurrentStep, { lead_id: leadId }))).toMatchObject({
      current_step: 3,
      completed: true,
    });
    expect(ok(await c.post(leadsPaths.getLead, { lead_id: leadId })).locked).toBe(true);
    expect((await c.post(leadsPaths.addLead, leadForm(leadId))).statusCode).toBe(409);
    expect((await c.post(leadsPaths.runChecks, { lead_id: leadId, check_name: 'All' })).statusCode).toBe(409);
    const decisions = await db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'lead.decision')
      .execute();
    expect(decisions.length).toBeGreaterThan(0);
  });

  it('refuses a link after it expires, and an unknown one, with the same message', async () => {
    const { leadId } = await leadWithChecks(12);
    const { token } = await sendForApproval(leadId);
    const row = await db
      .selectFrom('lead_approvals')
      .select('expires_on')
      .where('lead_id', '=', leadId)
      .executeTakeFirstOrThrow();
    // The link's expiry is moved back for a moment, not the clock forward (the job workers share the clock).
    const expire = (expires_on: Date) =>
      db.updateTable('lead_approvals').set({ expires_on }).where('lead_id', '=', leadId).execute();
    await expire(new Date(Date.now() - 1000));
    try {
      const late = await publicPost(leadsPaths.approve, { app_id: token, approved: 1 });
      expect(late.statusCode).toBe(404);
      expect(late.json().message).toBe(APPROVAL_PAGE_TEXT.invalid);
    } finally {
      await expire(new Date(row.expires_on));
    }
    const unknown = await publicPost(leadsPaths.getApproval, {
      app_id: randomBytes(32).toString('base64url'),
    });
    expect(unknown.statusCode).toBe(404);
    expect((await publicPost(leadsPaths.getApproval, { app_id: 'x' })).statusCode).toBe(400);
    // Still pending and usable before it expires: a rejection is recorded and does not convert the lead.
    ok(await publicPost(leadsPaths.approve, { app_id: token, approved: 0, comment: '' }));
    const crm = await db
      .selectFrom('crm_leads')
      .select('converted_account_id')
      .where('lead_id', '=', leadId)
      .executeTakeFirstOrThrow();
    expect(crm.converted_account_id).toBeNull();
  });

  it('serves the public approval page without a session', async () => {
    const page = await app.inject({ method: 'GET', url: '/leads/app?id=abc' });
    const home = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(home.statusCode);
    expect(page.body).toBe(home.body);
  });
});

describe('sensitive data stays out of lists, logs, audit details and the database in clear', () => {
  it('finds no SSN, DOB, TIN or DDA in list answers, log lines, audit details or any leads table', async () => {
    const c = await sales();
    const leadId = sandboxLeadId(4);
    const answers = [
      (await c.get(leadsPaths.getLeads)).body,
      (await c.get(leadsPaths.getApprovals)).body,
      (await c.post(leadsPaths.getChecks, { lead_id: leadId })).body,
      (await c.post(leadsPaths.getLeadApproval, { lead_id: sandboxLeadId(11) })).body,
      (await c.post(leadsPaths.getLead, { lead_id: leadId })).body,
    ];
    const audit = await sql<{ t: string }>`select details::text as t from audit_log`.execute(db);
    const tables = await sql<{ t: string }>`
      select row_to_json(x)::text as t from crm_leads x
      union all select row_to_json(x)::text from lead_forms x
      union all select row_to_json(x)::text from lead_applications x
      union all select row_to_json(x)::text from lead_steps x
      union all select row_to_json(x)::text from lead_checks x
      union all select row_to_json(x)::text from lead_approvals x
      union all select row_to_json(x)::text from outbox x
      union all select data::text from pgboss.job x`.execute(db);
    expect(tables.rows.some((r) => r.t.includes('v1.'))).toBe(true);
    expect(logLines.length).toBeGreaterThan(0);
    const haystacks: [string, string[]][] = [
      ['list answers', answers],
      ['log lines', logLines],
      ['audit details', audit.rows.map((r) => r.t)],
      ['leads tables', tables.rows.map((r) => r.t)],
    ];
    for (const [where, texts] of haystacks)
      for (const secret of [...SECRETS, ROUTING])
        expect(texts.filter((t) => t.includes(secret)).length, `${secret} in ${where}`).toBe(0);
  });
});

describe('the TINCheck adapter', () => {
  const subject = {
    leadId: sandboxLeadId(1),
    form: leadsEndpoints.addLead.input.parse(leadForm(sandboxLeadId(1))),
  };
  const answering = (status: number, codeXml: string) => {
    const sent: { url: string; body: string }[] = [];
    const fetcher = (async (url: string | URL | Request, init?: RequestInit) => {
      sent.push({ url: String(url), body: String(init?.body) });
      return new Response(
        `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ValidateTinNameResponse><ValidateTinNameResult>${codeXml}</ValidateTinNameResult></ValidateTinNameResponse></soap:Body></soap:Envelope>`,
        { status },
      );
    }) as typeof fetch;
    return { sent, provider: new TinCheckProvider({ login: 'rm@example.com', password: 'pw' }, fetcher) };
  };
  const signal = () => AbortSignal.timeout(5000);

  it('asks ValidateTinName with the EIN and legal name, and reads a match as clear', async () => {
    const { sent, provider } = answering(
      200,
      '<TINNAME_CODE>1</TINNAME_CODE><TINNAME_DETAILS>TIN and Name combination matches IRS records</TINNAME_DETAILS>',
    );
    const outcome = await provider.run('TinCheck', subject, signal());
    expect(outcome).toMatchObject({
      verdict: 'clear',
      summary: 'TIN and Name combination matches IRS records',
    });
    expect(sent[0]?.body).toContain('<pvs:TIN>451234567</pvs:TIN>');
    expect(sent[0]?.body).toContain('<pvs:LName>Lopez Bakery LLC</pvs:LName>');
    expect(JSON.stringify(outcome)).not.toContain(TIN_DIGITS);
  });

  it('reads no match as a finding, and an unknown code or an HTTP error as a failure', async () => {
    const miss = answering(
      200,
      '<TINNAME_CODE>0</TINNAME_CODE><TINNAME_DETAILS>TIN and Name combination does not match IRS records</TINNAME_DETAILS>',
    );
    expect((await miss.provider.run('TinCheck', subject, signal())).verdict).toBe('hit');
    const odd = answering(200, '<TINNAME_CODE>-1</TINNAME_CODE>');
    await expect(odd.provider.run('TinCheck', subject, signal())).rejects.toThrow(/code -1/);
    const down = answering(503, '');
    await expect(down.provider.run('TinCheck', subject, signal())).rejects.toThrow(/HTTP 503/);
  });
});

describe('the approval link is rate-limited', () => {
  let limited: Awaited<ReturnType<typeof testApp>>;
  beforeAll(async () => {
    limited = await testApp({ rateLimits: 'on' });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('refuses an address that asks more than 30 times a minute', async () => {
    const ask = () =>
      limited.app.inject({
        method: 'POST',
        url: leadsPaths.getApproval,
        payload: { app_id: randomBytes(32).toString('base64url') },
        headers: { 'content-type': 'application/json' },
        remoteAddress: '203.0.113.9',
      });
    for (let i = 0; i < 30; i++) expect((await ask()).statusCode).toBe(404);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Too many requests/);
  });
});

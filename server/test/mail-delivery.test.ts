import net from 'node:net';
import ExcelJS from 'exceljs';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { jobDefinitions } from '../src/jobs';
import { badRequest } from '../src/platform/errors';
import { route } from '../src/platform/http';
import { MAIL_DELIVER, Mailer, type MailMessage, mailDeliveryJob } from '../src/platform/mailer';
import { Client, type TestApp, testApp } from './helpers';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a given port, started and stopped by the test. */
class TestSmtp {
  readonly received: Received[] = [];
  private server: SMTPServer | null = null;

  /** Starts the server, unless it is already up. */
  async start(port: number): Promise<void> {
    if (this.server) return;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  bySubject(subject: string): Received[] {
    return this.received.filter((m) => m.raw.includes(`Subject: ${subject}`));
  }
}

/** A port nothing listens on (yet): the SMTP server is "down" until the test starts one there. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The parts of a MIME message with a filename, decoded: an oracle that does not use nodemailer. */
function attachmentsOf(raw: string): { filename: string; contentType: string; bytes: Buffer }[] {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/g)].map((m) => m[1] as string);
  const parts = boundaries.flatMap((b) => raw.split(`--${b}`));
  const found: { filename: string; contentType: string; bytes: Buffer }[] = [];
  for (const part of parts) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
    const filename = /filename="?([^";\r\n]+)"?/.exec(head)?.[1];
    if (!filename || !/content-transfer-encoding: base64/i.test(head)) continue;
    const contentType = /content-type: ([^;\r\n]+)/i.exec(head)?.[1]?.trim() ?? '';
    found.push({
      filename,
      contentType,
      bytes: Buffer.from(part.slice(split + 4).replace(/\s+/g, ''), 'base64'),
    });
  }
  return found;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const FAKE_PDF = Buffer.from('<html>not a pdf</html>');
let XLSX: Buffer;

async function outboxRow(t: TestApp, id: number) {
  return t.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function latestOutboxTo(t: TestApp, to: string) {
  return t.db
    .selectFrom('outbox')
    .selectAll()
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

async function mailJobs(t: TestApp): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pgboss.job where name = ${MAIL_DELIVER}`.execute(t.db);
  return rows[0]?.n ?? 0;
}

/** Sends a mail in its own committed transaction, as a request would. */
function sendCommitted(t: TestApp, message: MailMessage): Promise<number> {
  return t.db.transaction().execute((trx) => new Mailer(t.jobs).send(trx, message));
}

const smtp = new TestSmtp();
let smtpPort = 0;
/** Delivers through the test SMTP server, which is down until a test starts it; retries every second. */
let withSmtp: TestApp;
/** No SMTP_URL: mails stay in the local outbox. */
let local: TestApp;
/** A route that sends a mail and then fails, on withSmtp's database and jobs. */
let failing: FastifyInstance;
let adminId = 0;

beforeAll(async () => {
  smtpPort = await freePort();
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Residuals').addRows([
    ['MID', 'Amount'],
    ['7410', 12.5],
  ]);
  XLSX = Buffer.from(await workbook.xlsx.writeBuffer());
  const smtpUrl = `smtp://127.0.0.1:${smtpPort}`;
  const settings = loadConfig({ SMTP_URL: smtpUrl, MAIL_FROM: 'PayDesk <no-reply@paydesk.test>' });
  [withSmtp, local] = await Promise.all([
    testApp({
      smtpUrl,
      jobs: {
        work: true,
        // Production retries span hours; here a retry follows a second later.
        definitions: [
          ...jobDefinitions(settings).filter((d) => d.name !== MAIL_DELIVER),
          mailDeliveryJob(
            { smtpUrl, from: settings.MAIL_FROM },
            { retryLimit: 20, retryDelaySeconds: 1, retryBackoff: false },
          ),
        ],
      },
    }),
    testApp({ jobs: { work: true } }),
  ]);
  const deps = {
    db: withSmtp.db,
    config: loadConfig({ LOG_LEVEL: 'silent' }),
    jobs: withSmtp.jobs,
    mailer: new Mailer(withSmtp.jobs),
  };
  failing = Fastify();
  route(failing, deps, {
    method: 'POST',
    url: '/test/send-then-fail',
    access: 'public',
    scope: 'platform',
    handler: async ({ db }) => {
      await deps.mailer.send(db, { to: 'finance@paydesk.local', subject: 'Never sent', text: 'Rolled back' });
      throw badRequest('Something after the mail went wrong');
    },
  });
  await failing.ready();
  const admin = await withSmtp.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'admin@paydesk.local')
    .executeTakeFirstOrThrow();
  adminId = admin.id;
});

afterAll(async () => {
  await failing?.close();
  await Promise.all([withSmtp?.close(), local?.close()]);
  await smtp.stop();
});

describe('e-mail delivery through the outbox', () => {
  it('retries while the SMTP server is down and delivers exactly once when it is up', async () => {
    const res = await new Client(withSmtp.app).post('/api/app/account/forgotpassword', {
      email: 'finance@paydesk.local',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    const queued = await latestOutboxTo(withSmtp, 'finance@paydesk.local');
    expect(queued?.subject).toBe('Reset your PayDesk password');
    const id = queued?.id as number;

    // Down: each try is recorded, and the mail stays pending.
    const retried = await until('two failed tries', async () => {
      const row = await outboxRow(withSmtp, id);
      return row.attempts >= 2 ? row : null;
    });
    expect(retried.state).toBe('pending');
    expect(retried.last_error).toMatch(/ECONNREFUSED/);
    expect(retried.sent_at).toBeNull();
    expect(smtp.received).toHaveLength(0);

    await smtp.start(smtpPort);
    const sent = await until('the mail to be sent', async () => {
      const row = await outboxRow(withSmtp, id);
      return row.state === 'sent' ? row : null;
    });
    expect(sent.sent_at).toBeInstanceOf(Date);
    expect(sent.attempts).toBeGreaterThanOrEqual(3);
    // Two more retry periods: a second delivery would have happened by now.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const delivered = smtp.bySubject('Reset your PayDesk password');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.from).toBe('no-reply@paydesk.test');
    expect(delivered[0]?.to).toEqual(['finance@paydesk.local']);
    expect((await outboxRow(withSmtp, id)).attempts).toBe(sent.attempts);
    const { rows } = await sql<{ state: string }>`
      select state::text from pgboss.job where name = ${MAIL_DELIVER} and data->'payload'->>'outboxId' = ${String(id)}
      union all
      select state::text from pgboss.archive where name = ${MAIL_DELIVER} and data->'payload'->>'outboxId' = ${String(id)}`.execute(
      withSmtp.db,
    );
    expect(rows.map((r) => r.state)).toEqual(['completed']);

    // The delivered link works.
    const body = delivered[0]?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') ?? '';
    const code = /reset\?code=([A-Za-z0-9_-]+)/.exec(body)?.[1];
    expect(code).toBeTruthy();
    const check = await new Client(withSmtp.app).post('/api/app/account/checkresetpassword', { code });
    expect(check.statusCode).toBe(200);
  });

  it('neither keeps nor sends a mail of a request that rolled back', async () => {
    await smtp.start(smtpPort);
    const rowsBefore = await withSmtp.db.selectFrom('outbox').select('id').execute();
    const jobsBefore = await mailJobs(withSmtp);
    const res = await failing.inject({ method: 'POST', url: '/test/send-then-fail', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(await withSmtp.db.selectFrom('outbox').select('id').execute()).toEqual(rowsBefore);
    expect(await mailJobs(withSmtp)).toBe(jobsBefore);

    // A mail committed after it is delivered, so the worker is running; the rolled-back one never arrives.
    const later = await sendCommitted(withSmtp, {
      to: 'sales@paydesk.local',
      subject: 'Committed after the rollback',
      text: 'Hello',
    });
    await until('the later mail', async () => (await outboxRow(withSmtp, later)).state === 'sent');
    expect(smtp.bySubject('Committed after the rollback')).toHaveLength(1);
    expect(smtp.bySubject('Never sent')).toHaveLength(0);
  });

  it('delivers PDF and XLSX attachments byte for byte, and refuses a file that is not what its name says', async () => {
    await smtp.start(smtpPort);
    const id = await sendCommitted(withSmtp, {
      to: 'finance@paydesk.local',
      subject: 'October statements',
      text: 'Attached.',
      sentBy: adminId,
      attachments: [
        { filename: 'Statement October.pdf', content: PDF },
        { filename: 'Residuals.xlsx', content: XLSX },
      ],
    });
    await until('the mail with attachments', async () => (await outboxRow(withSmtp, id)).state === 'sent');
    const [mail] = smtp.bySubject('October statements');
    const files = attachmentsOf(mail?.raw ?? '');
    expect(files.map((f) => [f.filename, f.contentType])).toEqual([
      ['Statement October.pdf', 'application/pdf'],
      ['Residuals.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ]);
    expect(Buffer.compare(files[0]?.bytes ?? Buffer.alloc(0), PDF)).toBe(0);
    expect(Buffer.compare(files[1]?.bytes ?? Buffer.alloc(0), XLSX)).toBe(0);
    // Kept as internal documents, which partner staff never see.
    const documents = await withSmtp.db
      .selectFrom('outbox_attachments as a')
      .innerJoin('documents as d', 'd.id', 'a.document_id')
      .select(['d.partner_id', 'd.kind'])
      .where('a.outbox_id', '=', id)
      .execute();
    expect(documents).toEqual([
      { partner_id: null, kind: 'mail_attachment' },
      { partner_id: null, kind: 'mail_attachment' },
    ]);

    const rowsBefore = await withSmtp.db.selectFrom('outbox').select('id').execute();
    const docsBefore = await withSmtp.db.selectFrom('documents').select('id').execute();
    await expect(
      sendCommitted(withSmtp, {
        to: 'finance@paydesk.local',
        subject: 'Fake',
        text: 'x',
        sentBy: adminId,
        attachments: [{ filename: 'invoice.pdf', content: FAKE_PDF }],
      }),
    ).rejects.toThrow('The file is not a valid PDF file');
    await expect(
      sendCommitted(withSmtp, {
        to: 'finance@paydesk.local',
        subject: 'Too many',
        text: 'x',
        sentBy: adminId,
        attachments: Array.from({ length: 6 }, (_, i) => ({ filename: `${i}.pdf`, content: PDF })),
      }),
    ).rejects.toThrow('at most 5 attachments');
    await expect(
      sendCommitted(withSmtp, {
        to: 'finance@paydesk.local',
        subject: 'Wrong type',
        text: 'x',
        sentBy: adminId,
        attachments: [{ filename: 'run.exe', content: PDF }],
      }),
    ).rejects.toThrow('only .pdf, .xlsx, .png, .jpg, .jpeg files can be attached');
    expect(await withSmtp.db.selectFrom('outbox').select('id').execute()).toEqual(rowsBefore);
    expect(await withSmtp.db.selectFrom('documents').select('id').execute()).toEqual(docsBefore);
  });
});

describe('without SMTP_URL', () => {
  let attachmentId = 0;
  let mailId = 0;
  beforeAll(async () => {
    mailId = await sendCommitted(local, {
      to: 'finance.admin@paydesk.local',
      subject: 'PCI billing run',
      text: 'The workbook is attached.',
      sentBy: adminId,
      attachments: [{ filename: 'PCI billing.xlsx', content: XLSX }],
    });
    const row = await local.db
      .selectFrom('outbox_attachments')
      .select('document_id')
      .where('outbox_id', '=', mailId)
      .executeTakeFirstOrThrow();
    attachmentId = row.document_id;
  });

  it('keeps the mail in the local outbox, shown by the outbox calls', async () => {
    const res = await new Client(local.app).post('/api/app/account/forgotpassword', {
      email: 'sales@paydesk.local',
    });
    expect(res.statusCode).toBe(200);
    const mail = await until('the mail to be kept locally', async () => {
      const row = await latestOutboxTo(local, 'sales@paydesk.local');
      return row?.state === 'local' ? row : null;
    });
    expect(mail.attempts).toBe(0);
    expect(mail.sent_at).toBeNull();

    const admin = new Client(local.app);
    await admin.signin('admin@paydesk.local');
    const list = (await admin.get('/api/app/outbox')).json();
    expect(list[0]).toMatchObject({
      id: mail.id,
      to: 'sales@paydesk.local',
      subject: 'Reset your PayDesk password',
    });

    const page = await admin.post('/api/app/outbox/query', {
      filters: [{ id: 'state', kind: 'select', values: ['local'] }],
      search: 'sales@',
    });
    expect(page.statusCode).toBe(200);
    const shown = page.json().rows.find((r: { id: number }) => r.id === mail.id);
    expect(shown).toMatchObject({ to: 'sales@paydesk.local', state: 'local', attempts: 0, sentAt: null });

    const message = await admin.get(`/api/app/outbox/message?id=${mailId}`);
    expect(message.statusCode).toBe(200);
    await until(
      'the attached mail to be kept locally',
      async () => (await outboxRow(local, mailId)).state === 'local',
    );
    expect((await admin.get(`/api/app/outbox/message?id=${mailId}`)).json()).toMatchObject({
      subject: 'PCI billing run',
      state: 'local',
      attachments: [{ id: attachmentId, filename: 'PCI billing.xlsx', sizeBytes: XLSX.length }],
    });
    expect((await admin.get('/api/app/outbox/message?id=abc')).statusCode).toBe(400);
    expect((await admin.get('/api/app/outbox/message?id=2147483647')).statusCode).toBe(404);
  });

  it('answers an attachment to admins only', async () => {
    const admin = new Client(local.app);
    await admin.signin('admin@paydesk.local');
    const res = await admin.get(`/api/app/outbox/attachment?id=${attachmentId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toBe('attachment; filename="PCI billing.xlsx"');
    expect(Buffer.compare(res.rawPayload, XLSX)).toBe(0);

    for (const email of [
      'finance@paydesk.local',
      'finance.admin@paydesk.local',
      'partner@summitpayments.example',
    ]) {
      const other = new Client(local.app);
      await other.signin(email);
      const refused = await other.get(`/api/app/outbox/attachment?id=${attachmentId}`);
      expect(refused.statusCode, email).toBe(403);
      expect(refused.rawPayload.includes(XLSX.subarray(0, 64))).toBe(false);
    }
    expect(
      (await new Client(local.app).get(`/api/app/outbox/attachment?id=${attachmentId}`)).statusCode,
    ).toBe(401);
    // Only mail attachments: another document is not found through the outbox.
    const other = await local.db
      .insertInto('documents')
      .values({
        owner_user_id: adminId,
        partner_id: null,
        kind: 'report',
        filename: 'other.pdf',
        content_type: 'application/pdf',
        size_bytes: PDF.length,
        sha256: 'a'.repeat(64),
        content: PDF,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await admin.get(`/api/app/outbox/attachment?id=${other.id}`)).statusCode).toBe(404);
  });
});

import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../src/platform/mailer';
import { Client, type TestApp, testApp } from './helpers';

const quiet = { error: () => {} };

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let port = 0;
const received: Received[] = [];
let t: TestApp;
let mailer: SmtpMailer;
/** An app whose SMTP server is down. */
let cutOff: TestApp;
const down = new SmtpMailer('smtp://127.0.0.1:1', 'PayDesk <no-reply@paydesk.test>', quiet);

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as { port: number }).port;
  mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'PayDesk <no-reply@paydesk.test>', quiet);
  [t, cutOff] = await Promise.all([testApp({ mailer }), testApp({ mailer: down })]);
});

afterAll(async () => {
  await Promise.all([t?.close(), cutOff?.close()]);
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('e-mail over SMTP', () => {
  it('delivers the reset e-mail to a real SMTP server and writes nothing to the outbox', async () => {
    const res = await new Client(t.app).post('/api/app/account/forgotpassword', {
      email: 'finance@paydesk.local',
    });
    expect(res.statusCode).toBe(200);
    await mailer.flush();
    expect(received).toHaveLength(1);
    expect(received[0]?.from).toBe('no-reply@paydesk.test');
    expect(received[0]?.to).toEqual(['finance@paydesk.local']);
    expect(received[0]?.raw).toMatch(/Subject: Reset your PayDesk password/);
    const body = received[0]?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') ?? '';
    const code = /reset\?code=([A-Za-z0-9_-]+)/.exec(body)?.[1];
    expect(code).toBeTruthy();
    expect((await new Client(t.app).post('/api/app/account/checkresetpassword', { code })).statusCode).toBe(
      200,
    );
    expect(await t.db.selectFrom('outbox').selectAll().execute()).toEqual([]);
  });

  it('answers the same when the SMTP server is down', async () => {
    const res = await new Client(cutOff.app).post('/api/app/account/forgotpassword', {
      email: 'finance@paydesk.local',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    await down.flush();
  });
});

import { randomBytes } from 'node:crypto';
import type { Capability, Department } from '@paydesk/domain';
import { XLSX_MIME } from '@paydesk/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app';
import { createUser } from '../src/areas/accounts/queries';
import { loadConfig } from '../src/config';
import { connect, type Db } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { seedDemo } from '../src/db/seed/index';
import { hashPassword } from '../src/platform/crypto';
import { type Mailer, OutboxMailer } from '../src/platform/mailer';

export const DEMO_PASSWORD = 'Demo-Pass-2026!';

/**
 * A fresh, migrated and seeded database for one test file: in-memory PGlite by default, or a new database on
 * the PostgreSQL server of TEST_DATABASE_URL (set by scripts/with-test-postgres.sh), dropped afterwards.
 */
export async function testDatabase(): Promise<{ db: Db; kind: string; close: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const c = await connect({ pgliteDir: 'memory://' });
    await migrateToLatest(c.db);
    await seedDemo(c.db, { password: DEMO_PASSWORD, scale: 'test' });
    return c;
  }
  const name = `paydesk_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const c = await connect({ databaseUrl: url.toString() });
  await migrateToLatest(c.db);
  await seedDemo(c.db, { password: DEMO_PASSWORD, scale: 'test' });
  return {
    db: c.db,
    kind: c.kind,
    close: async () => {
      await c.close();
      // The pool's clients may still be saying goodbye; wait for them rather than forcing them out, which
      // would raise their FATAL as an uncaught error in the test process.
      for (let attempt = 0; ; attempt++) {
        const { rows } = await admin.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (rows[0]?.n === 0 || attempt === 50) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  kind: string;
  close: () => Promise<void>;
}

export async function testApp(options: { mailer?: Mailer } = {}): Promise<TestApp> {
  const { db, kind, close } = await testDatabase();
  const config = loadConfig({ APP_URL: 'http://paydesk.test', LOG_LEVEL: 'silent' });
  const app = await buildApp({ db, config, mailer: options.mailer ?? new OutboxMailer() }, { logger: false });
  await app.ready();
  return {
    app,
    db,
    kind,
    close: async () => {
      await app.close();
      await close();
    },
  };
}

/** A client that keeps cookies between calls, like a browser. */
export class Client {
  cookies = new Map<string, string>();
  /** `remoteAddress`: the client address the server sees (sign-in throttling counts per address). */
  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress = '127.0.0.1',
  ) {}

  async post(
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.remoteAddress,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        cookie: this.cookieHeader(),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    this.keep(res);
    return res;
  }

  /** Posts a spreadsheet as the raw request body, as the web app's import does. */
  async upload(url: string, file: Buffer): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.remoteAddress,
      headers: { 'content-type': XLSX_MIME, cookie: this.cookieHeader() },
      payload: file,
    });
    this.keep(res);
    return res;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.remoteAddress,
      headers: { cookie: this.cookieHeader() },
    });
    this.keep(res);
    return res;
  }

  async signin(email: string, password = DEMO_PASSWORD) {
    const res = await this.post('/api/app/account/signin', { email, password });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${res.body}`);
    return res.json();
  }

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: LightMyRequestResponse) {
    for (const c of res.cookies) {
      const expired =
        c.maxAge === 0 || (c.expires !== undefined && new Date(c.expires).getTime() < Date.now());
      if (expired || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
}

export async function addUser(
  db: Db,
  email: string,
  department: Department,
  options: { capabilities?: Capability[]; partnerId?: number | null; password?: string } = {},
) {
  return createUser(db, {
    email,
    department,
    passwordHash: await hashPassword(options.password ?? DEMO_PASSWORD),
    capabilities: options.capabilities ?? [],
    partnerId: options.partnerId ?? null,
  });
}

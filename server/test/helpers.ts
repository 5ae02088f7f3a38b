import fs from 'node:fs/promises';
import type { Capability, Department } from '@paydesk/domain';
import { XLSX_MIME } from '@paydesk/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app';
import { createUser } from '../src/areas/accounts/queries';
import { type Config, loadConfig } from '../src/config';
import { type Connected, connect, type Db } from '../src/db/connect';
import { migrateToLatest, migrateUpTo } from '../src/db/migrate';
import { jobDefinitions } from '../src/jobs';
import { hashPassword } from '../src/platform/crypto';
import { Jobs, type JobsOptions } from '../src/platform/jobs';
import { Mailer } from '../src/platform/mailer';
import { hasPiiKeys } from '../src/platform/pii';
import {
  adminClient,
  DEMO_PASSWORD,
  databaseUrl,
  installJobSchema,
  silentLog,
  uniqueName,
  useTestPiiKey,
  waitUntilUnused,
} from './databases';

export { DEMO_PASSWORD };

/**
 * A migrated and seeded database of its own for one test file: a copy of the run's demo database made by
 * globalSetup.ts — an in-memory PGlite loaded from its dump by default, or a new database on the PostgreSQL
 * server of TEST_DATABASE_URL (set by scripts/with-test-postgres.sh) made from its template, dropped afterwards.
 */
export async function testDatabase(): Promise<Connected> {
  const template = inject('databaseTemplate');
  if (template.kind === 'pglite') {
    const dump = await fs.readFile(template.dumpFile);
    return connect({ pgliteDir: 'memory://', pgliteDataDir: new Blob([dump]) });
  }
  const name = uniqueName('paydesk_test');
  const admin = await adminClient(template.serverUrl);
  await admin.query(`create database ${name} template ${template.database}`);
  const c = await connect({ databaseUrl: databaseUrl(template.serverUrl, name) });
  return { ...c, close: dropOnClose(c, admin, name) };
}

/** A database of its own with the schema only: migrated (pg-boss's schema too), not seeded. */
export async function migratedDatabase(upTo?: string): Promise<Connected> {
  const template = inject('databaseTemplate');
  let c: Connected;
  if (template.kind === 'pglite') {
    c = await connect({ pgliteDir: 'memory://' });
  } else {
    const name = uniqueName('paydesk_test');
    const admin = await adminClient(template.serverUrl);
    await admin.query(`create database ${name}`);
    const opened = await connect({ databaseUrl: databaseUrl(template.serverUrl, name) });
    c = { ...opened, close: dropOnClose(opened, admin, name) };
  }
  if (upTo) await migrateUpTo(c.db, upTo);
  else await migrateToLatest(c.db);
  await installJobSchema(c);
  return c;
}

/** Closes a connection to a database made for one file, then drops that database. */
function dropOnClose(c: Connected, admin: pg.Client, name: string) {
  return async () => {
    await c.close();
    await waitUntilUnused(admin, name);
    await admin.query(`drop database if exists ${name}`);
    await admin.end();
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  kind: string;
  jobs: Jobs;
  connected: Connected;
  close: () => Promise<void>;
}

export interface TestAppOptions {
  /** SMTP_URL: where the `mail.deliver` job sends; unset, mails stay in the local outbox. */
  smtpUrl?: string;
  /** The app's background jobs; by default declared (so routes can queue them) but not worked. */
  jobs?: Partial<Pick<JobsOptions, 'definitions' | 'work' | 'schedule' | 'log'>>;
  /** Another app on the same database (a second server instance). */
  connected?: Connected;
  /**
   * Off unless asked for: a test file plays many users from one address, far faster than people sign in,
   * and would be refused 429 by the per-address limits (rate-limits.test.ts turns them on).
   */
  rateLimits?: 'on' | 'off';
}

/** Jobs that tests work poll often and check schedules every second, so a test waits little. */
export function startTestJobs(
  connected: Connected,
  options: TestAppOptions['jobs'] = {},
  config: Config = loadConfig({ LOG_LEVEL: 'silent' }),
): Promise<Jobs> {
  return Jobs.start({
    connected,
    definitions: options.definitions ?? jobDefinitions(config),
    work: options.work ?? false,
    schedule: options.schedule ?? false,
    pollingIntervalSeconds: 0.5,
    cronMonitorIntervalSeconds: 1,
    maintenanceIntervalSeconds: 1,
    log: options.log ?? silentLog,
  });
}

const DAY_MS = 86_400_000;

/**
 * Waits, when the UTC day ends within `seconds`, until it has: for a test file whose expected figures are of the
 * day it starts in, while the server names today on each request. A file started at 23:59 would cross midnight
 * halfway and compare one day's figures with the next's.
 */
export async function clearOfMidnight(seconds = 120): Promise<void> {
  const now = Date.now();
  const left = DAY_MS - (now % DAY_MS);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 1000));
}

export async function testApp(options: TestAppOptions = {}): Promise<TestApp> {
  // A server always has a key for sensitive fields (main.ts); a test file that set none gets the one the seeded
  // data was encrypted with (databases.ts).
  if (!hasPiiKeys()) useTestPiiKey();
  const connected = options.connected ?? (await testDatabase());
  const { db, kind } = connected;
  const config = loadConfig({
    APP_URL: 'http://paydesk.test',
    LOG_LEVEL: 'silent',
    RATE_LIMITS: options.rateLimits ?? 'off',
    ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl, MAIL_FROM: 'PayDesk <no-reply@paydesk.test>' } : {}),
  });
  const jobs = await startTestJobs(connected, options.jobs, config);
  const app = await buildApp({ db, config, mailer: new Mailer(jobs), jobs }, { logger: false });
  await app.ready();
  return {
    app,
    db,
    kind,
    jobs,
    connected,
    close: async () => {
      await app.close();
      await jobs.stop();
      if (!options.connected) await connected.close();
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

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.remoteAddress,
      headers: { ...headers, cookie: this.cookieHeader() },
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

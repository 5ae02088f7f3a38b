import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Connected } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { seedDemo } from '../src/db/seed/index';
import { Jobs } from '../src/platform/jobs';
import { type PiiKey, parsePiiKey, usePiiKeys } from '../src/platform/pii';

/**
 * The demo database every API test file starts from. globalSetup.ts migrates and seeds it once per run;
 * each file gets its own copy (testDatabase() in helpers.ts), so what one file changes no other file sees.
 */
export type DatabaseTemplate =
  | { kind: 'pglite'; dumpFile: string }
  | { kind: 'postgres'; serverUrl: string; database: string };

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}

export const DEMO_PASSWORD = 'Demo-Pass-2026!';

/**
 * The key of sensitive fields in the test databases: the seed writes the PCI bank numbers with it in the global
 * setup, and every test file reads them with it.
 */
export const TEST_PII_KEY = parsePiiKey(Buffer.alloc(32, 7).toString('base64')) as PiiKey;
export const useTestPiiKey = () => usePiiKeys({ current: TEST_PII_KEY, old: [] });

export async function migrateAndSeed(c: Connected): Promise<void> {
  useTestPiiKey();
  await migrateToLatest(c.db);
  await installJobSchema(c);
  await seedDemo(c.db, { password: DEMO_PASSWORD, scale: 'test' });
}

/** pg-boss makes its schema when it first starts; the copies each test file gets then start with it. */
export async function installJobSchema(c: Connected): Promise<void> {
  const jobs = await Jobs.start({
    connected: c,
    definitions: [],
    work: false,
    schedule: false,
    log: silentLog,
  });
  await jobs.stop();
}

export const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** The URL of another database on the server of `serverUrl`. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Waits until nobody is connected to a database, so it can be dropped or copied. A closed pool's clients may
 * still be saying goodbye; forcing them out would raise their FATAL as an uncaught error in the test process.
 */
export async function waitUntilUnused(admin: pg.Client, database: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { rows } = await admin.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [database],
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Database ${database} is still in use after 10 s`);
}

export async function adminClient(serverUrl: string): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  return admin;
}

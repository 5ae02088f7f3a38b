import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { TestProject } from 'vitest/node';
import { connect } from '../src/db/connect';
import { adminClient, databaseUrl, migrateAndSeed, uniqueName, waitUntilUnused } from './databases';

/**
 * Migrates and seeds the demo database once per run (~20 s) instead of once per test file: on the
 * PostgreSQL server of TEST_DATABASE_URL as a template database, otherwise as a dump of an in-memory PGlite.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const database = uniqueName('paydesk_template');
    const admin = await adminClient(serverUrl);
    try {
      await admin.query(`create database ${database}`);
      const c = await connect({ databaseUrl: databaseUrl(serverUrl, database) });
      try {
        await migrateAndSeed(c);
      } finally {
        await c.close();
      }
      // CREATE DATABASE … TEMPLATE refuses a template anyone is connected to.
      await waitUntilUnused(admin, database);
    } finally {
      await admin.end();
    }
    project.provide('databaseTemplate', { kind: 'postgres', serverUrl, database });
    return async () => {
      const admin = await adminClient(serverUrl);
      await admin.query(`drop database if exists ${database}`);
      await admin.end();
    };
  }

  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paydesk-test-db-'));
  const dumpFile = path.join(dir, 'demo.tar');
  const c = await connect({ pgliteDir: 'memory://' });
  try {
    await migrateAndSeed(c);
    // Written out to the data files, the copies start without replaying the write-ahead log (~1 s each).
    await sql`checkpoint`.execute(c.db);
    const dump = await c.dumpDataDir?.();
    if (!dump) throw new Error('PGlite gave no dump of its data folder');
    await fs.writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await c.close();
  }
  project.provide('databaseTemplate', { kind: 'pglite', dumpFile });
  return () => fs.rm(dir, { recursive: true, force: true });
}

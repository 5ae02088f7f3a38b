import fs from 'node:fs';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { copyingPool } from './copy';
import { EmbeddedDatabase } from './embeddedDatabase';
import { Mutex, PGliteDialect, pgliteExecuteSql } from './pglite-dialect';
import type { Database } from './schema';

export type Db = Kysely<Database>;

const INT8 = 20;
const DATE = 1082;

/**
 * Both databases return the same JSON: counts (int8) as numbers, `date` as 'YYYY-MM-DD' text, numeric as
 * exact decimal text, timestamptz as Date.
 */
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(DATE, (v) => v);

export interface DbTarget {
  databaseUrl?: string | undefined;
  /** PGlite data folder; 'memory://' for a throwaway in-memory database. */
  pgliteDir?: string;
  /** A PGlite data folder dumped by `dumpDataDir()`, to start from instead of an empty database. */
  pgliteDataDir?: Blob;
  /** PGlite only: its thread stopped by itself (PGlite aborted, out of memory); every statement now fails. */
  onEmbeddedFailure?: (err: Error) => void;
}

export interface Connected {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
  /** PGlite only: the whole database as a tarball, for `pgliteDataDir`. */
  dumpDataDir?: () => Promise<Blob>;
  /** PGlite only: raw SQL behind the same lock as Kysely, for pg-boss (platform/jobs.ts). */
  executeSql?: (text: string, values?: readonly unknown[]) => Promise<{ rows: unknown[] }>;
  /** PostgreSQL only: the server, for pg-boss's own small pool. */
  databaseUrl?: string;
}

export async function connect(target: DbTarget): Promise<Connected> {
  if (target.databaseUrl) {
    // JIT compilation off: the product's statements are short, and compiling the seed's large expressions took
    // minutes on PostgreSQL 15 (the same statement runs in seconds without it). The session's time zone is UTC
    // whatever the server's own: PayDesk's days are UTC days, in its code and in its statements (current_date, a
    // timestamp's day), as on the embedded database.
    const pool = new pg.Pool({
      connectionString: target.databaseUrl,
      max: 10,
      options: '-c jit=off -c TimeZone=UTC',
    });
    // An idle connection the server drops (a restart, a failover) is discarded by the pool; without a
    // listener its error would end the process.
    pool.on('error', (err) => console.error('PostgreSQL connection lost:', err.message));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: copyingPool(pool), cursor: Cursor }),
    });
    return { db, kind: 'postgres', close: () => db.destroy(), databaseUrl: target.databaseUrl };
  }
  // In a thread of its own (db/embeddedDatabase.ts), started only when chosen: a process on PostgreSQL does not load it.
  const dir = target.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) fs.mkdirSync(dir, { recursive: true });
  const pglite = await EmbeddedDatabase.open(dir, target.pgliteDataDir, target.onEmbeddedFailure);
  const mutex = new Mutex();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite, mutex) });
  return {
    db,
    kind: 'pglite',
    // Kysely ends its driver only if it was used: the thread is ended either way.
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
    dumpDataDir: () => pglite.dumpDataDir(),
    executeSql: pgliteExecuteSql(pglite, mutex),
  };
}

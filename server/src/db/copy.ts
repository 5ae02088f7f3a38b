import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Db } from './connect';

/**
 * Bulk loading with COPY … FROM STDIN (text format), through Kysely so that it runs on the caller's connection and
 * inside its transaction. Kysely has no COPY of its own: the rows travel as the statement's only parameter, a
 * CopyRows, which each database's connection recognises (below for PostgreSQL, pglite-dialect.ts for PGlite).
 */
export class CopyRows {
  constructor(
    /** Lines of tab-separated fields in UTF-8, each ending with a newline, fields written by `copyField`. */
    readonly data: Buffer,
  ) {}
}

/**
 * COPY lines gathered in one buffer that is reused batch after batch. A batch lives until the database has it, so
 * held as JavaScript strings it would survive long enough to be moved to the old heap, and a large import would
 * leave a hundred megabytes of garbage there before the collector came back for it; bytes outside the heap leave
 * none.
 */
export class CopyBatch {
  private buffer = Buffer.allocUnsafe(1024 * 1024);
  private length = 0;
  rows = 0;

  get bytes(): number {
    return this.length;
  }

  /** Adds one line (its fields already joined by tabs), without its newline. */
  add(line: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    const room = this.length + line.length * 3 + 1;
    if (room > this.buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(room, this.buffer.length * 2));
      this.buffer.copy(larger, 0, 0, this.length);
      this.buffer = larger;
    }
    this.length += this.buffer.write(line, this.length);
    this.buffer[this.length++] = 0x0a;
    this.rows++;
  }

  /** The lines so far, as a view of the buffer: valid until `clear()`. */
  contents(): CopyRows {
    return new CopyRows(this.buffer.subarray(0, this.length));
  }

  clear(): void {
    this.length = 0;
    this.rows = 0;
  }
}

/**
 * One field in COPY's text format. Backslash, tab, newline and carriage return are escaped (they would otherwise
 * end the field or the row); null is `\N`. As every backslash of a value is doubled, no value can read as `\N` or
 * as the end-of-data line `\.`.
 */
export function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, escapeChar) : value;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escapeChar = (ch: string) => ESCAPES[ch] as string;

/** Copies rows (already in COPY text format) into `table` (its `columns`, in that order). */
export async function copyIn(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: CopyRows,
): Promise<void> {
  const quoted = columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');
  await db.executeQuery(CompiledQuery.raw(`copy ${table} (${quoted}) from stdin`, [rows]));
}

/** True when a statement is a `copyIn`: its rows are the only parameter. */
export const isCopyIn = (parameters: readonly unknown[]): parameters is readonly [CopyRows] =>
  parameters.length === 1 && parameters[0] instanceof CopyRows;

/**
 * The pool handed to Kysely: its clients run a `copyIn` statement as COPY FROM STDIN (pg-copy-streams), and every
 * other statement as before. One wrapper per pooled client, so Kysely keeps one connection object per client.
 */
export function copyingPool(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((textOrCursor: unknown, parameters?: readonly unknown[]) => {
      if (typeof textOrCursor === 'string' && parameters && isCopyIn(parameters)) {
        return copyThrough(client, textOrCursor, parameters[0]);
      }
      return parameters === undefined
        ? client.query(textOrCursor as pg.Submittable)
        : client.query(textOrCursor as string, [...parameters]);
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  });
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapped = wrappers.get(client);
      if (!wrapped) {
        wrapped = wrap(client);
        wrappers.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}

async function copyThrough(client: pg.PoolClient, text: string, rows: CopyRows) {
  const stream = client.query(copyFrom(text));
  await pipeline(Readable.from([rows.data], { objectMode: false }), stream);
  // Kysely counts affected rows only for INSERT, UPDATE, DELETE and MERGE; a COPY's count is not needed.
  return { command: 'COPY', rowCount: stream.rowCount, rows: [] };
}

import { randomBytes } from 'node:crypto';
import { type ImportProblem, MAX_IMPORT_PROBLEMS, type UploadColumn } from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { CopyRows, copyIn } from '../db/copy';
import { isEmbedded } from '../db/pglite-dialect';
import { AppError } from './errors';
import type { Prepared } from './http';
import { BATCH_BYTES, EMBEDDED_BATCH_BYTES, ImportEncoder } from './importRows';
import { bulkStep } from './signinFirst';
import type { FromImport, ToImport } from './spreadsheetThread';
import { SpreadsheetThread } from './spreadsheetThreads';

/**
 * All-or-nothing imports. Every row of the file is checked against the layout; good rows are written to a
 * temporary staging table as they are read: before the request's transaction opens, for a route that prepares
 * its import (prepareImport), or in it (stageImport alone: the partner import). A file with any bad row is refused
 * whole, with row numbers and reasons, and nothing changes. A good file is then applied from the staging table by
 * the import's own SQL, in the request's transaction.
 */
export class ImportRejected extends AppError {
  constructor(message: string, problems: ImportProblem[]) {
    super('bad_request', message, { problems });
  }
}

export type ImportSource =
  | { kind: 'xlsx'; file: Buffer }
  | { kind: 'rows'; rows: readonly (readonly unknown[])[] };

const SQL_TYPE: Record<UploadColumn['type'], string> = {
  text: 'text',
  month: 'date',
  date: 'date',
  money: 'numeric(14, 2)',
  integer: 'integer',
  decimal: 'numeric(14, 4)',
};

/** Staging column name of a layout column. */
export const stagingColumn = (header: string) => `c_${header.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;

export interface StagedImport {
  rows: number;
  problems: ImportProblem[];
  addProblem: (p: ImportProblem) => void;
}

/**
 * How an import applies its staged rows (prepareImport, then applyImport):
 * - `staged`, after each batch is staged, while the rest of the file is still read: outside the request's
 *   transaction, on the staging table `table` (areas/reports/imports.ts: the residual import fills the months new to
 *   the table, each in a bare table nobody sees yet);
 * - `prepared`, once the whole file is staged and has no bad row, also outside the transaction (the residual
 *   import makes those tables' indexes);
 * - `finish`, in the request's transaction, with the staged rows as `import_rows`: its own checks, then its writes;
 * - `release`, after the transaction whatever its outcome, or when the file is refused: drops what `staged` and
 *   `prepared` made and `finish` did not publish.
 * Nothing `staged` or `prepared` make may be seen by anyone before `finish` publishes it: a refused file, a failed
 * `finish` or a stopped server must leave the data as it was.
 */
export interface ImportSteps {
  staged?: (db: Db, table: string) => Promise<void>;
  prepared?: (db: Db, table: string) => Promise<void>;
  finish: (db: Db) => Promise<void>;
  release?: (db: Db) => Promise<void>;
}

/**
 * A file read and staged before the request's transaction (a route's `prepare`, platform/http.ts): its rows wait
 * in a temporary table of their own, `table`, on the request's connection.
 */
export class PreparedImport implements Prepared {
  constructor(
    readonly table: string,
    readonly rows: number,
    readonly steps: ImportSteps,
  ) {}
  async release(connection: Db): Promise<void> {
    await sql`drop table if exists ${sql.table(this.table)}`.execute(connection);
    await this.steps.release?.(connection);
  }
}

/**
 * Stages the source outside any transaction, on the request's connection, into a temporary table of its own, and
 * runs the steps that may run there (`staged`, `prepared`). Throws ImportRejected when a row is bad, with
 * everything it made dropped. The transaction's part is applyImport.
 */
export async function prepareImport(
  connection: Db,
  columns: readonly UploadColumn[],
  source: ImportSource,
  steps: ImportSteps,
): Promise<PreparedImport> {
  if (connection.isTransaction) throw new Error('prepareImport runs outside a transaction');
  const table = `import_rows_${randomBytes(6).toString('hex')}`;
  const { staged, prepared } = steps;
  try {
    const rows = await stageImport(
      connection,
      columns,
      source,
      staged && (() => staged(connection, table)),
      table,
    );
    await prepared?.(connection, table);
    return new PreparedImport(table, rows, steps);
  } catch (err) {
    await new PreparedImport(table, 0, steps).release(connection);
    throw err;
  }
}

/**
 * The transaction's part of a prepared import: its staged rows become `import_rows` for `finish`, which checks
 * and writes them. Answers how many rows were imported.
 */
export async function applyImport(db: Db, prepared: Prepared | null): Promise<number> {
  if (!(prepared instanceof PreparedImport)) throw new Error('applyImport: the route prepares no import');
  await sql`alter table ${sql.table(prepared.table)} rename to import_rows`.execute(db);
  await prepared.steps.finish(db);
  // Gone with the transaction's work; if it fails instead, the table has its own name again, and release drops it.
  await sql`drop table import_rows`.execute(db);
  return prepared.rows;
}

/** How many batches (about a megabyte each) an import's file may be read ahead of the database. */
const BATCHES_AHEAD = 4;

/**
 * Reads the source row by row into the temporary table `table` (row_no plus one column per layout column) and
 * returns how many rows were staged. Throws ImportRejected when any row is bad. In a transaction the table
 * (`import_rows` by default) is dropped at commit; outside one (prepareImport) it lasts until dropped.
 *
 * `onStaged`, when given, runs after each batch is written, before the next batch is written (the file is read on
 * meanwhile): an import can apply the rows staged so far while the rest of the file is still being read, instead
 * of after it (see areas/reports/imports.ts, residualImport).
 */
export async function stageImport(
  db: Db,
  columns: readonly UploadColumn[],
  source: ImportSource,
  onStaged?: () => Promise<void>,
  table = 'import_rows',
): Promise<number> {
  if (!/^import_rows(_[0-9a-f]{12})?$/.test(table)) throw new Error(`Not a staging table: ${table}`);
  const defs = columns.map((c) => `${stagingColumn(c.header)} ${SQL_TYPE[c.type]}`).join(', ');
  await sql
    .raw(
      `create temporary table ${table} (row_no integer primary key, ${defs})${db.isTransaction ? ' on commit drop' : ''}`,
    )
    .execute(db);

  // Rows are staged by COPY in batches of about a megabyte (128 KB on the embedded database, importRows.ts): the next
  // batches are read while one is written (and applied, by `onStaged`), so the database works while the file is
  // parsed. The file is read at most BATCHES_AHEAD batches ahead of the database, so memory stays at a few
  // megabytes, and an apply step that takes longer now and then (the residual import attaching a month) does not
  // hold the reading up.
  const names = ['row_no', ...columns.map((c) => stagingColumn(c.header))];
  let writing: Promise<unknown> = Promise.resolve();
  const ahead: Promise<unknown>[] = [];
  const write = async (rows: CopyRows) => {
    if (ahead.length >= BATCHES_AHEAD) await ahead.shift();
    writing = writing
      .then(() => bulkStep(db))
      .then(() => copyIn(db, table, names, rows))
      .then(() => bulkStep(db))
      .then(onStaged);
    // A failed write surfaces at the next await of `writing`; until then it must not count as unhandled.
    writing.catch(() => {});
    ahead.push(writing);
  };
  const batchBytes = isEmbedded(db) ? EMBEDDED_BATCH_BYTES : BATCH_BYTES;
  let encoded: Pick<ImportEncoder, 'problems' | 'extraProblems' | 'encoded'>;
  if (source.kind === 'xlsx') encoded = await encodeInThread(columns, source.file, batchBytes, write);
  else {
    // The spec's JSON form carries the rows after the header. Its one batch is reused once sent, so each is
    // written before the next is filled.
    const encoder = new ImportEncoder(
      columns,
      MAX_IMPORT_PROBLEMS,
      async (batch) => {
        await write(batch.contents());
        await writing;
      },
      true,
      batchBytes,
    );
    for (const [i, values] of source.rows.entries()) await encoder.row(i + 2, values);
    await encoder.end();
    encoded = encoder;
  }
  await writing;
  const problems = [...encoded.problems];
  if (problems.length === 0 && encoded.encoded === 0)
    problems.push({ row: 0, message: 'The file has no rows to import' });
  if (problems.length > 0) throw rejection(problems, encoded.extraProblems);
  // A temporary table has no statistics until analysed: without them the apply step's deletes are planned
  // blind (a delete of the file's months scanned every residual row).
  // The month and date columns are what apply steps delete and join by; analysing only them is quick.
  const keys = columns
    .filter((c) => c.type === 'month' || c.type === 'date')
    .map((c) => stagingColumn(c.header));
  if (keys.length > 0)
    await sql`analyze ${sql.table(table)} (${sql.join(keys.map((k) => sql.ref(k)))})`.execute(db);
  return encoded.encoded;
}

/**
 * Reads and checks an .xlsx upload in the spreadsheet thread (spreadsheetThreads.ts); its COPY lines come back
 * batch by batch to be written here, inside the request's transaction.
 */
async function encodeInThread(
  columns: readonly UploadColumn[],
  file: Buffer,
  batchBytes: number,
  write: (rows: CopyRows) => Promise<void>,
): Promise<Pick<ImportEncoder, 'problems' | 'extraProblems' | 'encoded'>> {
  // The thread gets a copy of its own: the request's buffer may share memory with others.
  const copy = new Uint8Array(file);
  const thread = await SpreadsheetThread.start<ToImport, FromImport>(
    { kind: 'import', columns, maxProblems: MAX_IMPORT_PROBLEMS, file: copy, batchBytes },
    [copy.buffer],
  );
  try {
    for (;;) {
      const message = await thread.inbox.next();
      if ('batch' in message) {
        await write(new CopyRows(Buffer.from(message.batch)));
        thread.post({ taken: true });
        continue;
      }
      if ('error' in message) throw new Error(`The import's spreadsheet thread failed: ${message.error}`);
      thread.release();
      if ('done' in message) return message.done;
      throw new ImportRejected(message.refused, [{ row: message.row, message: message.refused }]);
    }
  } catch (err) {
    if (!(err instanceof ImportRejected)) await thread.stop();
    throw err;
  }
}

export function rejection(problems: ImportProblem[], extra = 0): ImportRejected {
  const count = problems.length + extra;
  return new ImportRejected(
    `Nothing was imported: ${count} problem${count === 1 ? '' : 's'} found${extra > 0 ? ` (the first ${problems.length} are listed)` : ''}`,
    problems,
  );
}

/** Rows of `import_rows` that an apply step found wrong (e.g. an unknown MID), turned into a rejection. */
export async function rejectRows(
  db: Db,
  query: string,
  message: (row: Record<string, unknown>) => string,
  column?: string,
) {
  const { rows } = await sql
    .raw<Record<string, unknown> & { row_no: number }>(
      `${query} order by row_no limit ${MAX_IMPORT_PROBLEMS + 1}`,
    )
    .execute(db);
  if (rows.length === 0) return;
  const problems = rows
    .slice(0, MAX_IMPORT_PROBLEMS)
    .map((r) => ({ row: r.row_no, ...(column ? { column } : {}), message: message(r) }));
  throw rejection(problems, rows.length > MAX_IMPORT_PROBLEMS ? 1 : 0);
}

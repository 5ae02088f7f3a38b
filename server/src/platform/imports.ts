import { type ImportProblem, MAX_IMPORT_PROBLEMS, type UploadColumn } from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { CopyRows, copyIn } from '../db/copy';
import { AppError } from './errors';
import { ImportEncoder } from './importRows';
import { bulkStep } from './signinFirst';
import type { FromImport, ToImport } from './spreadsheetThread';
import { SpreadsheetThread } from './spreadsheetThreads';

/**
 * All-or-nothing imports. Every row of the file is checked against the layout; good rows are written to a
 * temporary staging table of the request's transaction as they are read; a file with any bad row is
 * refused whole, with row numbers and reasons, and nothing changes. A good file is then applied from the
 * staging table by the import's own SQL, in the same transaction.
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
 * How an import applies its staged rows: `finish` once the whole file is staged (its own checks, then its writes,
 * in the request's transaction), and optionally `staged` after each batch, while the rest of the file is still
 * read (stageImport's `onStaged`; see areas/reports/imports.ts, residualImport).
 */
export interface ImportSteps {
  staged?: (db: Db) => Promise<void>;
  finish: (db: Db) => Promise<void>;
}

/** Stages the source (stageImport), applies it by its steps and answers how many rows were imported. */
export async function runImport(
  db: Db,
  columns: readonly UploadColumn[],
  source: ImportSource,
  steps: ImportSteps,
): Promise<number> {
  const { staged } = steps;
  const rows = await stageImport(db, columns, source, staged && (() => staged(db)));
  await steps.finish(db);
  return rows;
}

/** How many batches (about a megabyte each) an import's file may be read ahead of the database. */
const BATCHES_AHEAD = 4;

/**
 * Reads the source row by row into the temporary table `import_rows` (row_no plus one column per layout column) and
 * returns how many rows were staged. Throws ImportRejected when any row is bad.
 *
 * `onStaged`, when given, runs after each batch is written, in the same transaction, before the next batch is
 * written (the file is read on meanwhile): an import can apply the rows staged so far while the rest of the file
 * is still being read, instead of after it (see areas/reports/imports.ts, residualImport). Whatever it writes is
 * undone with the rest when the file turns out to be bad.
 */
export async function stageImport(
  db: Db,
  columns: readonly UploadColumn[],
  source: ImportSource,
  onStaged?: () => Promise<void>,
): Promise<number> {
  const defs = columns.map((c) => `${stagingColumn(c.header)} ${SQL_TYPE[c.type]}`).join(', ');
  await sql
    .raw(`create temporary table import_rows (row_no integer primary key, ${defs}) on commit drop`)
    .execute(db);

  // Rows are staged by COPY in batches of about a megabyte: the next batches are read while one is written (and
  // applied, by `onStaged`), so the database works while the file is parsed. The file is read at most
  // BATCHES_AHEAD batches ahead of the database, so memory stays at a few megabytes, and an apply step that takes
  // longer now and then (the residual import attaching a month) does not hold the reading up.
  const names = ['row_no', ...columns.map((c) => stagingColumn(c.header))];
  let writing: Promise<unknown> = Promise.resolve();
  const ahead: Promise<unknown>[] = [];
  const write = async (rows: CopyRows) => {
    if (ahead.length >= BATCHES_AHEAD) await ahead.shift();
    writing = writing
      .then(() => bulkStep(db))
      .then(() => copyIn(db, 'import_rows', names, rows))
      .then(() => bulkStep(db))
      .then(onStaged);
    // A failed write surfaces at the next await of `writing`; until then it must not count as unhandled.
    writing.catch(() => {});
    ahead.push(writing);
  };
  let encoded: Pick<ImportEncoder, 'problems' | 'extraProblems' | 'encoded'>;
  if (source.kind === 'xlsx') encoded = await encodeInThread(columns, source.file, write);
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
  if (keys.length > 0) await sql`analyze import_rows (${sql.join(keys.map((k) => sql.ref(k)))})`.execute(db);
  return encoded.encoded;
}

/**
 * Reads and checks an .xlsx upload in the spreadsheet thread (spreadsheetThreads.ts); its COPY lines come back
 * batch by batch to be written here, inside the request's transaction.
 */
async function encodeInThread(
  columns: readonly UploadColumn[],
  file: Buffer,
  write: (rows: CopyRows) => Promise<void>,
): Promise<Pick<ImportEncoder, 'problems' | 'extraProblems' | 'encoded'>> {
  // The thread gets a copy of its own: the request's buffer may share memory with others.
  const copy = new Uint8Array(file);
  const thread = await SpreadsheetThread.start<ToImport, FromImport>(
    { kind: 'import', columns, maxProblems: MAX_IMPORT_PROBLEMS, file: copy },
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

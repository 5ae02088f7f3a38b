import { type ImportProblem, MAX_IMPORT_PROBLEMS, type UploadColumn } from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { CopyBatch, copyField, copyIn } from '../db/copy';
import { AppError } from './errors';
import { readFirstSheet, SpreadsheetRefused, UNREADABLE } from './xlsxReader';

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
 * Reads the source row by row into the temporary table `import_rows` (row_no plus one column per layout column) and
 * returns how many rows were staged. Throws ImportRejected when any row is bad.
 */
export async function stageImport(
  db: Db,
  columns: readonly UploadColumn[],
  source: ImportSource,
): Promise<number> {
  const defs = columns.map((c) => `${stagingColumn(c.header)} ${SQL_TYPE[c.type]}`).join(', ');
  await sql
    .raw(`create temporary table import_rows (row_no integer primary key, ${defs}) on commit drop`)
    .execute(db);

  const problems: ImportProblem[] = [];
  let extraProblems = 0;
  const problem = (p: ImportProblem) => {
    if (problems.length < MAX_IMPORT_PROBLEMS) problems.push(p);
    else extraProblems++;
  };
  // Rows are staged by COPY in batches of about a megabyte. Two batches take turns: one is written while the next
  // is read, so the database works while the file is parsed, and memory stays at two batches.
  const names = ['row_no', ...columns.map((c) => stagingColumn(c.header))];
  const batches = [new CopyBatch(), new CopyBatch()];
  let batch = batches[0] as CopyBatch;
  let staged = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    if (batch.rows === 0) return;
    // The other batch is refilled next: its write must be over.
    await writing;
    const sent = batch;
    writing = copyIn(db, 'import_rows', names, sent.contents()).finally(() => sent.clear());
    // A failed write surfaces at the next await of `writing`; until then it must not count as unhandled.
    writing.catch(() => {});
    staged += sent.rows;
    batch = batches[batches.indexOf(sent) === 0 ? 1 : 0] as CopyBatch;
  };
  let sawHeader = false;
  const onRow = async (rowNumber: number, values: readonly unknown[]) => {
    if (!sawHeader) {
      sawHeader = true;
      const got = values.map((v) =>
        String(v ?? '')
          .trim()
          .toLowerCase(),
      );
      const fits = (c: UploadColumn, i: number) =>
        got[i] === c.header.toLowerCase() || (c.label !== undefined && got[i] === c.label.toLowerCase());
      if (!columns.every(fits)) {
        problem({
          row: rowNumber,
          message: `The first row must be the column headers: ${columns.map((c) => c.header).join(', ')}`,
        });
      }
      return;
    }
    if (values.every((v) => v === null || v === undefined || String(v).trim() === '')) return;
    let line = String(rowNumber);
    let ok = true;
    columns.forEach((c, i) => {
      const converted = convert(c, values[i]);
      if (typeof converted === 'object' && converted !== null && 'problem' in converted) {
        ok = false;
        problem({ row: rowNumber, column: c.header, message: converted.problem });
      } else line += `\t${copyField(converted)}`;
    });
    if (
      values.length > columns.length &&
      values.slice(columns.length).some((v) => v !== null && String(v).trim() !== '')
    ) {
      ok = false;
      problem({
        row: rowNumber,
        message: `The row has more than the ${columns.length} columns of the layout`,
      });
    }
    if (ok && problems.length === 0) {
      batch.add(line);
      if (batch.bytes >= 1024 * 1024) await flush();
    }
  };

  if (source.kind === 'xlsx') {
    try {
      await readFirstSheet(source.file, onRow);
    } catch (err) {
      if (err instanceof AppError) throw err;
      const message = err instanceof SpreadsheetRefused ? err.message : UNREADABLE;
      throw new ImportRejected(message, [{ row: err instanceof SpreadsheetRefused ? err.row : 0, message }]);
    }
  } else {
    // The spec's JSON form carries the rows after the header.
    sawHeader = true;
    for (const [i, values] of source.rows.entries()) await onRow(i + 2, values);
  }
  if (problems.length === 0) await flush();
  await writing;
  if (problems.length === 0 && staged === 0) problem({ row: 0, message: 'The file has no rows to import' });
  if (problems.length > 0) throw rejection(problems, extraProblems);
  // A temporary table has no statistics until analysed: without them the apply step's deletes are planned
  // blind (a delete of the file's months scanned every residual row).
  // The month and date columns are what apply steps delete and join by; analysing only them is quick.
  const keys = columns
    .filter((c) => c.type === 'month' || c.type === 'date')
    .map((c) => stagingColumn(c.header));
  if (keys.length > 0) await sql`analyze import_rows (${sql.join(keys.map((k) => sql.ref(k)))})`.execute(db);
  return staged;
}

export function rejection(problems: ImportProblem[], extra = 0): ImportRejected {
  const count = problems.length + extra;
  return new ImportRejected(
    `Nothing was imported: ${count} problem${count === 1 ? '' : 's'} found${extra > 0 ? ` (the first ${problems.length} are listed)` : ''}`,
    problems,
  );
}

type Converted = string | number | null | { problem: string };

function convert(c: UploadColumn, raw: unknown): Converted {
  const empty = raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');
  if (empty) return c.required ? { problem: `${c.header} is required` } : null;
  // A number cell of a number column needs no text (most cells of a large file: skipping it is a tenth of a read).
  const numeric =
    typeof raw === 'number' && (c.type === 'money' || c.type === 'decimal' || c.type === 'integer');
  const text = numeric ? '' : raw instanceof Date ? raw.toISOString().slice(0, 10) : String(raw).trim();
  switch (c.type) {
    case 'text':
      return text.length > 200 ? { problem: `${c.header} is longer than 200 characters` } : text;
    case 'month': {
      const m = /^(\d{4})-(\d{2})(?:-01)?$/.exec(text);
      if (!m || Number(m[2]) < 1 || Number(m[2]) > 12)
        return { problem: `${c.header} must be a month such as 2026-09` };
      return `${m[1]}-${m[2]}-01`;
    }
    case 'date': {
      if (
        !/^\d{4}-\d{2}-\d{2}$/.test(text) ||
        !new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)
      ) {
        return { problem: `${c.header} must be a date such as 2026-09-30` };
      }
      return text;
    }
    case 'money':
    case 'decimal': {
      const n = typeof raw === 'number' ? raw : Number(text.replace(/[$,\s]/g, ''));
      if (!Number.isFinite(n) || Math.abs(n) >= 1e12) return { problem: `${c.header} must be a number` };
      const places = c.type === 'money' ? 2 : 4;
      const scaled = n * 10 ** places;
      if (Math.abs(scaled - Math.round(scaled)) > 1e-6) {
        return { problem: `${c.header} must have at most ${places} decimals` };
      }
      return (Math.round(scaled) / 10 ** places).toFixed(places);
    }
    case 'integer': {
      const n = typeof raw === 'number' ? raw : Number(text.replace(/[,\s]/g, ''));
      if (!Number.isInteger(n) || Math.abs(n) > 2_000_000_000)
        return { problem: `${c.header} must be a whole number` };
      return n;
    }
  }
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

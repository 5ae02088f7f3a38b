import type { ImportProblem, UploadColumn } from '@paydesk/domain';
import { CopyBatch, copyField } from '../db/copy';

/**
 * COPY lines per batch staged. PostgreSQL takes a megabyte (a few thousand rows) in one round trip. The embedded
 * database runs one statement at a time: a megabyte's COPY and the residual build's insert of its rows held it 40–50
 * ms on two busy cores, and a sign-in that came meanwhile waited for all of it; a batch of 128 KB holds it a few ms.
 */
export const BATCH_BYTES = 1024 * 1024;
export const EMBEDDED_BATCH_BYTES = 128 * 1024;

/**
 * An import's rows checked against the layout and turned into COPY lines for the staging table (row_no plus one
 * column per layout column). It touches no database, so it can run in the spreadsheet thread
 * (spreadsheetThread.ts) for an .xlsx upload, or on the main thread for the JSON form.
 */
export class ImportEncoder {
  readonly problems: ImportProblem[] = [];
  extraProblems = 0;
  /** Rows handed on to `send`. */
  encoded = 0;
  private readonly batch = new CopyBatch();

  constructor(
    private readonly columns: readonly UploadColumn[],
    private readonly maxProblems: number,
    /**
     * Takes a batch of about `batchBytes` of COPY lines; the batch's buffer is reused once the promise settles,
     * so the sender copies it or is done with it by then.
     */
    private readonly send: (batch: CopyBatch) => Promise<void>,
    /** The JSON form carries no header row. */
    private sawHeader = false,
    private readonly batchBytes = BATCH_BYTES,
  ) {}

  private problem(p: ImportProblem) {
    if (this.problems.length < this.maxProblems) this.problems.push(p);
    else this.extraProblems++;
  }

  async row(rowNumber: number, values: readonly unknown[]): Promise<void> {
    const { columns } = this;
    if (!this.sawHeader) {
      this.sawHeader = true;
      const got = values.map((v) =>
        String(v ?? '')
          .trim()
          .toLowerCase(),
      );
      const fits = (c: UploadColumn, i: number) =>
        got[i] === c.header.toLowerCase() || (c.label !== undefined && got[i] === c.label.toLowerCase());
      if (!columns.every(fits)) {
        this.problem({
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
        this.problem({ row: rowNumber, column: c.header, message: converted.problem });
      } else line += `\t${copyField(converted)}`;
    });
    if (
      values.length > columns.length &&
      values.slice(columns.length).some((v) => v !== null && String(v).trim() !== '')
    ) {
      ok = false;
      this.problem({
        row: rowNumber,
        message: `The row has more than the ${columns.length} columns of the layout`,
      });
    }
    if (ok && this.problems.length === 0) {
      this.batch.add(line);
      if (this.batch.bytes >= this.batchBytes) await this.flush();
    }
  }

  /** Hands on the last rows (none once a problem is found: nothing of a bad file is staged). */
  async end(): Promise<void> {
    if (this.problems.length === 0) await this.flush();
  }

  private async flush() {
    if (this.batch.rows === 0) return;
    this.encoded += this.batch.rows;
    try {
      await this.send(this.batch);
    } finally {
      this.batch.clear();
    }
  }
}

type Converted = string | number | null | { problem: string };

/**
 * The years a month or a date of an import may fall in. PostgreSQL has no year 0 (a file saying 0000 failed the
 * whole request), and no statement, schedule or adjustment of this business is dated outside these.
 */
export const IMPORT_YEARS = { first: 1900, last: 2999 } as const;
const inYears = (text: string) => {
  const year = Number(text.slice(0, 4));
  return year >= IMPORT_YEARS.first && year <= IMPORT_YEARS.last;
};
const yearsProblem = (header: string) =>
  `${header} must be in the years ${IMPORT_YEARS.first} to ${IMPORT_YEARS.last}`;

/**
 * `units` (a whole number of 10^-places) written with `places` decimals: what `(units / 10 ** places).toFixed(places)`
 * writes, several times quicker (a large file has millions of amounts).
 */
export function fixed(units: number, places: number): string {
  const whole = Math.abs(units);
  const scale = 10 ** places;
  const fraction = whole % scale;
  return `${units < 0 ? '-' : ''}${(whole - fraction) / scale}.${String(fraction).padStart(places, '0')}`;
}

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
      if (!inYears(text)) return { problem: yearsProblem(c.header) };
      return `${m[1]}-${m[2]}-01`;
    }
    case 'date': {
      if (
        !/^\d{4}-\d{2}-\d{2}$/.test(text) ||
        !new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)
      ) {
        return { problem: `${c.header} must be a date such as 2026-09-30` };
      }
      if (!inYears(text)) return { problem: yearsProblem(c.header) };
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
      return fixed(Math.round(scaled), places);
    }
    case 'integer': {
      const n = typeof raw === 'number' ? raw : Number(text.replace(/[,\s]/g, ''));
      if (!Number.isInteger(n) || Math.abs(n) > 2_000_000_000)
        return { problem: `${c.header} must be a whole number` };
      return n;
    }
  }
}

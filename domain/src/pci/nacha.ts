import type { Money } from '../money';
import { ACH_STRIPPED_CHARACTERS } from './codes';

/**
 * The ACH billing file: one NACHA file of PPD debits (one batch), written a line at a time so a month of every
 * open merchant streams without being held whole. Records are 94 characters; the file is padded with
 * 9-filled records to a multiple of 10 (blocking factor 10). docs/pci.md describes each field.
 */

export const NACHA_RECORD_LENGTH = 94;
export const NACHA_BLOCKING_FACTOR = 10;
/** Transaction code of a debit to a checking account. */
export const NACHA_CHECKING_DEBIT = '27';
/** Service class of a batch of debits only. */
export const NACHA_DEBITS_ONLY = '225';

/** The originator: PayDesk's company and its bank (ODFI), from configuration. */
export interface NachaOriginator {
  /** 9-digit routing number of the ODFI (the immediate destination). */
  odfiRouting: string;
  odfiName: string;
  /** Company identification, 10 characters (often "1" and the EIN). */
  companyId: string;
  companyName: string;
  /** Immediate origin, 10 characters (usually the company id). */
  immediateOrigin: string;
  immediateOriginName: string;
  /** Company entry description, shown on the merchant's statement. */
  entryDescription: string;
}

export interface NachaEntry {
  /** 9-digit RDFI routing number, check digit valid (validRoutingNumber). */
  routing: string;
  /** DDA, digits only. */
  account: string;
  amount: Money;
  /** Individual identification number: the MID (its rightmost 15 characters, the field's width). */
  id: string;
  /** Individual name: the DBA. */
  name: string;
}

export interface NachaFileOptions {
  originator: NachaOriginator;
  /** When the file is written (its creation date and time, UTC). */
  createdAt: Date;
  /** YYYY-MM-DD: when the debits settle. */
  effectiveDate: string;
  /** What the batch header shows as the company descriptive date, e.g. "NOV 26". */
  descriptiveDate: string;
  /** A-Z or 0-9: distinguishes files written the same day. */
  fileIdModifier?: string;
}

/** ABA check digit: 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a multiple of 10. */
export function validRoutingNumber(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const weighted = [3, 7, 1, 3, 7, 1, 3, 7, 1].reduce((s, w, i) => s + w * (d[i] ?? 0), 0);
  return weighted % 10 === 0;
}

/** A DDA the file accepts: 4 to 17 digits. */
export const validAccountNumber = (account: string) => /^\d{4,17}$/.test(account);

const STRIPPED = new RegExp(`[${ACH_STRIPPED_CHARACTERS.map((c) => `\\${c}`).join('')}]`, 'g');

/**
 * A name as the file carries it: every occurrence of the spec's characters (# $ & ( ) - , . ') becomes a space
 * (the older system replaced only the first of each), anything outside printable ASCII too, then upper case
 * with runs of spaces collapsed.
 */
export function achName(name: string): string {
  return name
    .replace(STRIPPED, ' ')
    .replace(/[^\x20-\x7e]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .toUpperCase();
}

/** Alphanumeric field: left-justified, space-filled, cut to its width. */
const alpha = (value: string, width: number) => achName(value).slice(0, width).padEnd(width, ' ');
/** Numeric field: right-justified, zero-filled; a value too wide keeps its rightmost digits. */
const numeric = (value: bigint | number | string, width: number) =>
  String(value).padStart(width, '0').slice(-width);

const yymmdd = (day: string) => day.slice(2, 4) + day.slice(5, 7) + day.slice(8, 10);

/** Thrown for an entry that must never be written (the caller checks entries first). */
export class NachaError extends Error {}

/**
 * Writes a file's records as its entries come, so a month of every open merchant can be written a page at a time:
 * `header()`, then `entry(e)` for each debit, then `trailer()` (the batch and file controls: counts, entry hash
 * and debit total kept as the entries went by, then the 9-filled padding to a multiple of 10 records). Every
 * method answers records without line ends. `entry` throws NachaError for an entry with a bad routing or
 * account number or a non-positive amount: the caller leaves those out and reports them first.
 */
export class NachaWriter {
  private records = 0;
  private count = 0;
  private hash = 0n;
  private debits = 0n;
  private readonly odfi8: string;
  private readonly batchNumber = 1;

  constructor(private readonly options: NachaFileOptions) {
    this.odfi8 = options.originator.odfiRouting.slice(0, 8);
  }

  /** The debits written so far, and their total. */
  get entries(): number {
    return this.count;
  }
  get total(): Money {
    return this.debits as Money;
  }

  private emit(line: string): string {
    if (line.length !== NACHA_RECORD_LENGTH)
      throw new NachaError(`A record of ${line.length} characters (expected ${NACHA_RECORD_LENGTH})`);
    this.records += 1;
    return line;
  }

  /** The file header and the batch header. */
  header(): string[] {
    const o = this.options.originator;
    const created = this.options.createdAt.toISOString();
    return [
      this.emit(
        '1' +
          '01' +
          ` ${numeric(o.odfiRouting, 9)}` +
          alpha(o.immediateOrigin, 10).replace(/ +$/, '').padStart(10, ' ') +
          yymmdd(created.slice(0, 10)) +
          created.slice(11, 13) +
          created.slice(14, 16) +
          (this.options.fileIdModifier ?? 'A') +
          '094' +
          '10' +
          '1' +
          alpha(o.odfiName, 23) +
          alpha(o.immediateOriginName, 23) +
          ' '.repeat(8),
      ),
      this.emit(
        '5' +
          NACHA_DEBITS_ONLY +
          alpha(o.companyName, 16) +
          ' '.repeat(20) +
          alpha(o.companyId, 10) +
          'PPD' +
          alpha(o.entryDescription, 10) +
          alpha(this.options.descriptiveDate, 6) +
          yymmdd(this.options.effectiveDate) +
          '   ' +
          '1' +
          this.odfi8 +
          numeric(this.batchNumber, 7),
      ),
    ];
  }

  /** One PPD debit to a checking account (an entry detail record), numbered in order. */
  entry(e: NachaEntry): string {
    if (!validRoutingNumber(e.routing)) throw new NachaError(`MID ${e.id}: bad routing number`);
    if (!validAccountNumber(e.account)) throw new NachaError(`MID ${e.id}: bad DDA`);
    if (e.amount <= 0n) throw new NachaError(`MID ${e.id}: an entry debits a positive amount`);
    if (e.amount >= 10_000_000_000n) throw new NachaError(`MID ${e.id}: the amount does not fit an entry`);
    this.count += 1;
    this.hash += BigInt(e.routing.slice(0, 8));
    this.debits += e.amount;
    return this.emit(
      '6' +
        NACHA_CHECKING_DEBIT +
        e.routing +
        e.account.padEnd(17, ' ') +
        numeric(e.amount, 10) +
        alpha(e.id.slice(-15), 15) +
        alpha(e.name, 22) +
        '  ' +
        '0' +
        this.odfi8 +
        numeric(this.count, 7),
    );
  }

  /** The batch control, the file control and the padding. */
  trailer(): string[] {
    const o = this.options.originator;
    const entryHash = numeric(this.hash % 10_000_000_000n, 10);
    const lines = [
      this.emit(
        '8' +
          NACHA_DEBITS_ONLY +
          numeric(this.count, 6) +
          entryHash +
          numeric(this.debits, 12) +
          numeric(0, 12) +
          alpha(o.companyId, 10) +
          ' '.repeat(19) +
          ' '.repeat(6) +
          this.odfi8 +
          numeric(this.batchNumber, 7),
      ),
    ];
    const total = this.records + 1;
    const blocks = Math.ceil(total / NACHA_BLOCKING_FACTOR);
    lines.push(
      this.emit(
        '9' +
          numeric(1, 6) +
          numeric(blocks, 6) +
          numeric(this.count, 8) +
          entryHash +
          numeric(this.debits, 12) +
          numeric(0, 12) +
          ' '.repeat(39),
      ),
    );
    for (let i = total; i < blocks * NACHA_BLOCKING_FACTOR; i++)
      lines.push(this.emit('9'.repeat(NACHA_RECORD_LENGTH)));
    return lines;
  }
}

/** The file's lines (without line ends) for these entries, in order (see NachaWriter). */
export function* nachaLines(options: NachaFileOptions, entries: Iterable<NachaEntry>): Generator<string> {
  const writer = new NachaWriter(options);
  yield* writer.header();
  for (const e of entries) yield writer.entry(e);
  yield* writer.trailer();
}

/** The whole file as text, records ended by CRLF as banks expect. */
export function nachaFile(options: NachaFileOptions, entries: Iterable<NachaEntry>): string {
  let text = '';
  for (const line of nachaLines(options, entries)) text += `${line}\r\n`;
  return text;
}

import { MoneyError, parseMoney, toDecimalString } from '../money';
import { DATE_BOUNDS_MESSAGE, inDateBounds } from '../table';
import { ACH_RESOLUTIONS, isAchResolution } from './classification';

/**
 * Inline editing of an ACH row (spec document 2 §5): these columns only. Text inputs are saved on blur or Enter
 * when the value changed; rejRes is a select; the three dates are date inputs. The server sets workedBy and
 * datetimeWorked itself.
 */
export const ACH_EDITABLE_COLUMNS = [
  'comment',
  'usedRsv',
  'reRan',
  'sentToColl',
  'writeOff',
  'rejRes',
  'resDate',
  'usedRsvDate',
  'reRanDate',
] as const;
export type AchEditableColumn = (typeof ACH_EDITABLE_COLUMNS)[number];
export const isAchEditableColumn = (value: string): value is AchEditableColumn =>
  (ACH_EDITABLE_COLUMNS as readonly string[]).includes(value);

export type AchEditKind = 'text' | 'money' | 'resolution' | 'date';
export const ACH_EDIT_KINDS: Record<AchEditableColumn, AchEditKind> = {
  comment: 'text',
  usedRsv: 'money',
  reRan: 'money',
  sentToColl: 'money',
  writeOff: 'money',
  rejRes: 'resolution',
  resDate: 'date',
  usedRsvDate: 'date',
  reRanDate: 'date',
};

export const ACH_COMMENT_MAX = 1000;
/** The largest amount an ACH money column takes (what numeric(14, 2) holds, with room to spare). */
export const ACH_AMOUNT_MAX = 1_000_000_000;

export type AchEditValue = { ok: true; value: string | null } | { ok: false; message: string };

/**
 * The value to store for an edit, or why it is refused. Empty text (or null) clears the cell. Amounts are
 * exact decimals of at most two places, not negative (they are sums recovered or given up), stored as
 * '12.50'; dates are YYYY-MM-DD (a timestamp is cut to its day); rejRes is one of the resolutions.
 */
export function parseAchEdit(column: AchEditableColumn, raw: string | number | null): AchEditValue {
  const text = raw === null ? '' : typeof raw === 'number' ? String(raw) : raw.trim();
  if (text === '') return { ok: true, value: null };
  switch (ACH_EDIT_KINDS[column]) {
    case 'text':
      return text.length > ACH_COMMENT_MAX
        ? { ok: false, message: `The comment is too long (at most ${ACH_COMMENT_MAX} characters)` }
        : { ok: true, value: text };
    case 'money': {
      // Typed by people: "$1,250.00" is 1250.00.
      const plain = text.replace(/^\$/, '').replace(/,(?=\d{3}(\D|$))/g, '');
      try {
        const cents = parseMoney(typeof raw === 'number' ? raw : plain);
        if (cents < 0n) return { ok: false, message: `${column} is an amount of 0 or more` };
        if (cents > BigInt(ACH_AMOUNT_MAX) * 100n)
          return { ok: false, message: `${column} is too large an amount` };
        return { ok: true, value: toDecimalString(cents) };
      } catch (err) {
        if (err instanceof MoneyError)
          return { ok: false, message: `${column} must be an amount like 125.50 (at most two decimals)` };
        throw err;
      }
    }
    case 'resolution':
      return isAchResolution(text)
        ? { ok: true, value: text }
        : { ok: false, message: `rejRes must be one of: ${ACH_RESOLUTIONS.join(', ')}` };
    case 'date': {
      const day = text.slice(0, 10);
      const real =
        /^\d{4}-\d{2}-\d{2}(T\d\d:\d\d(:\d\d(\.\d{1,3})?)?Z?)?$/.test(text) &&
        !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) &&
        new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
      if (!real) return { ok: false, message: `${column} must be a date written YYYY-MM-DD` };
      if (!inDateBounds(day)) return { ok: false, message: DATE_BOUNDS_MESSAGE };
      return { ok: true, value: day };
    }
  }
}

/** What the screen shows when an edit fails (spec §8). */
export const ACH_UPDATE_FAILED_MESSAGE = 'Cannot update the database! try again';
/** The refusal of an edit to a row someone else changed since it was loaded. */
export const ACH_STALE_EDIT_MESSAGE =
  'Someone else changed this row since you loaded it. Reload to see their change, then edit again.';

import {
  ACH_EDIT_KINDS,
  ACH_STALE_EDIT_MESSAGE,
  ACH_UPDATE_FAILED_MESSAGE,
  type AchEditableColumn,
  parseAchEdit,
} from '@paydesk/domain';
import { ApiError } from '../../app/api';

/**
 * The rules of an inline ACH edit that need no browser: what an input starts with, whether leaving it sends
 * anything, and how a refusal reads. The value rules themselves are the server's (`parseAchEdit` in domain),
 * applied here first so a typo is caught before it is sent.
 */

/** A row as the table answers it: column id → value. */
export type AchRow = Record<string, unknown>;

/** The row's identity: live and historic (spreadsheet) rows are numbered apart. */
export function achRowId(row: AchRow): string {
  return `${Number(row.historic) === 1 ? 1 : 0}-${String(row.main_unique_key)}`;
}

/** What an input shows for a stored value: '' for none, a date as its day. */
export function inputValue(column: AchEditableColumn, stored: unknown): string {
  if (stored === null || stored === undefined) return '';
  const text = String(stored);
  return ACH_EDIT_KINDS[column] === 'date' ? text.slice(0, 10) : text;
}

export type Commit =
  | { kind: 'unchanged' }
  | { kind: 'invalid'; message: string }
  | { kind: 'send'; value: string | null };

/**
 * Leaving a cell (blur, Enter, a choice): nothing when the value means what it meant before ('12.5' for a stored
 * '12.50', spaces around a comment), a message when it is not a value of the column, else the value to send
 * (null clears the cell).
 */
export function commitOf(column: AchEditableColumn, original: string, draft: string): Commit {
  const next = parseAchEdit(column, draft);
  if (!next.ok) {
    return draft.trim() === original.trim()
      ? { kind: 'unchanged' }
      : { kind: 'invalid', message: next.message };
  }
  const before = parseAchEdit(column, original);
  const unchanged = before.ok ? before.value === next.value : draft.trim() === original.trim();
  return unchanged ? { kind: 'unchanged' } : { kind: 'send', value: next.value };
}

export interface SaveProblem {
  /** Someone else changed the row since it was loaded: reloading the row is the way on. */
  stale: boolean;
  /** The headline: the spec's failure text, or the stale-edit explanation. */
  title: string;
  /** The reason, when the server gave one. */
  detail: string | null;
}

/** How a refused or failed save is shown (spec §8: 'Cannot update the database! try again'). */
export function saveProblem(error: unknown): SaveProblem {
  if (error instanceof ApiError && error.status === 409) {
    return {
      stale: true,
      title: error.fromServer ? error.message : ACH_STALE_EDIT_MESSAGE,
      detail: null,
    };
  }
  const detail = error instanceof ApiError ? error.message : null;
  return { stale: false, title: ACH_UPDATE_FAILED_MESSAGE, detail };
}

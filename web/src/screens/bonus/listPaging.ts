/**
 * Paging of a bonus list held whole in the browser (the spec's calls answer every row of a window): page
 * sizes 15, 25, 50 and All, 15 first (spec document 3 §9).
 */
import { BONUS_PAGE_SIZES } from '@paydesk/domain';

/** "All": a page larger than any list, so paging needs no special case. */
export const BONUS_PAGE_ALL = Number.MAX_SAFE_INTEGER;
export const LIST_PAGE_SIZES = [...BONUS_PAGE_SIZES, BONUS_PAGE_ALL] as const;

export const pageSizeLabel = (size: number) => (size === BONUS_PAGE_ALL ? 'All' : String(size));

/** The rows of one page; All shows every row on one page. */
export function pageOf<Row>(rows: readonly Row[], page: number, size: number): Row[] {
  const start = (page - 1) * size;
  return rows.slice(start, start + size);
}

/** The last page there is (at least 1), so a page kept from a longer list never shows empty. */
export function lastPage(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/**
 * Rows where a searched text, or a word in it, starts with what was typed (case-insensitive prefix, as the
 * spec's table text filter), in the order given.
 */
export function searchRows<Row>(rows: readonly Row[], text: string, fields: (row: Row) => unknown[]): Row[] {
  const wanted = text.trim().toLowerCase();
  if (wanted === '') return [...rows];
  const starts = (value: unknown) => {
    if (value === null || value === undefined) return false;
    const words = String(value).toLowerCase();
    return words.startsWith(wanted) || words.split(/[\s,]+/).some((word) => word.startsWith(wanted));
  };
  return rows.filter((row) => fields(row).some(starts));
}

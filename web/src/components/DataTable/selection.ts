import type { Key } from 'react';

/**
 * Row selection that outlives paging: the set holds the ids of every selected row, on whichever page it
 * was ticked, so a bulk action can act on rows the current page no longer shows.
 */
export function toggleRow(selected: ReadonlySet<Key>, id: Key): Set<Key> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** The header box: whether every row of this page is selected, some are, or none. */
export function pageSelection(selected: ReadonlySet<Key>, pageIds: readonly Key[]): 'all' | 'some' | 'none' {
  const count = pageIds.filter((id) => selected.has(id)).length;
  if (count === 0) return 'none';
  return count === pageIds.length ? 'all' : 'some';
}

/** The header box clicked: selects the whole page, or, when it is all selected already, clears the page only. */
export function togglePage(selected: ReadonlySet<Key>, pageIds: readonly Key[]): Set<Key> {
  const next = new Set(selected);
  if (pageSelection(selected, pageIds) === 'all') for (const id of pageIds) next.delete(id);
  else for (const id of pageIds) next.add(id);
  return next;
}

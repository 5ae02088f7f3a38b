import type { BudgetRow, SaveBudgetBody } from '@paydesk/domain';

/** A cell of the budget grid. */
export const cellKey = (bank: string, mth: string) => `${bank}|${mth}`;

/** The saved budgets by cell. */
export function savedBudgets(rows: readonly BudgetRow[]): Map<string, number> {
  return new Map(rows.map((r) => [cellKey(r.bank, r.mth), r.budget]));
}

/**
 * What Save sends: one call per cell the user changed to a different amount. A cell emptied by the user is a
 * budget of 0 (the server keeps a budget per bank and month; there is no "unset"), and is sent only if it was
 * not 0 or absent before.
 */
export function budgetChanges(
  edits: ReadonlyMap<string, number | ''>,
  saved: ReadonlyMap<string, number>,
): SaveBudgetBody[] {
  const out: SaveBudgetBody[] = [];
  for (const [key, value] of edits) {
    const [bank = '', mth = ''] = key.split('|');
    const budget = value === '' ? 0 : value;
    if (budget !== (saved.get(key) ?? 0)) out.push({ bank, mth, budget });
  }
  return out.sort((a, b) => a.mth.localeCompare(b.mth) || a.bank.localeCompare(b.bank));
}

/** Each month's total over the banks, with the edits applied. */
export function monthTotal(
  banks: readonly string[],
  mth: string,
  edits: ReadonlyMap<string, number | ''>,
  saved: ReadonlyMap<string, number>,
): number {
  let total = 0;
  for (const bank of banks) {
    const key = cellKey(bank, mth);
    const edited = edits.get(key);
    total += edited === undefined ? (saved.get(key) ?? 0) : edited === '' ? 0 : edited;
  }
  return Math.round(total * 100) / 100;
}

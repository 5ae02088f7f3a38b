/** The MCC list shows this many entries before Show more (spec 3 §9). */
export const MCC_LIST_FIRST = 6;

/** An MCC label longer than this is cut (spec 3 §9); the full text is in its tooltip. */
export const MCC_LABEL_MAX = 35;

/** "5812 Eating Places, Restaurants", cut to 35 characters with an ellipsis. */
export function mccLabel(code: string, description: string): { text: string; cut: boolean } {
  const full = `${code} ${description}`.trim();
  return full.length > MCC_LABEL_MAX
    ? { text: `${full.slice(0, MCC_LABEL_MAX - 1).trimEnd()}…`, cut: true }
    : { text: full, cut: false };
}

/** Each MCC's share of the ISO's merchants, largest first (ties by code, so the order is stable). */
export function mccShares<R extends { mcc_code: string; mcc_count: number }>(
  rows: readonly R[],
): (R & { percent: number })[] {
  const total = rows.reduce((sum, r) => sum + r.mcc_count, 0);
  return rows
    .filter((r) => r.mcc_count > 0)
    .map((r) => ({ ...r, percent: total === 0 ? 0 : (r.mcc_count / total) * 100 }))
    .sort((a, b) => b.mcc_count - a.mcc_count || a.mcc_code.localeCompare(b.mcc_code));
}

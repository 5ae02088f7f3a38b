import type { IncomeRow, TransactionRow } from '@paydesk/domain';
import type { ExecFigures } from './ExecCards';

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

const sum = <R>(rows: readonly R[], f: (r: R) => number) => rows.reduce((s, r) => s + f(r), 0);

/**
 * The cards' figures: the period's totals for the ISO tab, and the same per merchant for the Merchant tab.
 * Per merchant divides by the most merchants active (for income: earning) in any one month or day of the
 * period, the nearest the rows come to "the merchants of the period" without double-counting a merchant
 * that was active in several months. Average ticket is volume over transactions either way.
 */
export function execFigures(
  tx: readonly Pick<
    TransactionRow,
    'txn_volume' | 'txn_count' | 'chbk_volume' | 'chbk_count' | 'active_count'
  >[],
  income: readonly IncomeRow[],
) {
  const volume = sum(tx, (r) => r.txn_volume);
  const transactions = sum(tx, (r) => r.txn_count);
  const iso: ExecFigures = {
    volume,
    transactions,
    avgTicket: transactions === 0 ? 0 : volume / transactions,
    chargebackVolume: sum(tx, (r) => r.chbk_volume),
    chargebackCount: sum(tx, (r) => r.chbk_count),
    gross: sum(income, (r) => r.gross_income),
    net: sum(income, (r) => r.net_income),
    expenses: sum(income, (r) => r.expenses),
    payouts: sum(income, (r) => r.payouts),
  };
  const merchants = Math.max(1, ...tx.map((r) => r.active_count));
  const earners = Math.max(1, ...income.map((r) => r.mid_count));
  const perMerchant: ExecFigures = {
    ...iso,
    volume: iso.volume / merchants,
    transactions: iso.transactions / merchants,
    chargebackVolume: iso.chargebackVolume / merchants,
    chargebackCount: iso.chargebackCount / merchants,
    gross: iso.gross / earners,
    net: iso.net / earners,
    expenses: iso.expenses / earners,
    payouts: iso.payouts / earners,
  };
  return { iso, perMerchant };
}

export interface TrendPoint {
  /** 'YYYY-MM-DD': a month's first day on a monthly chart, the day on a daily one. */
  date: string;
  value: number;
}

/**
 * A chart's values and its Trend: on a monthly chart whose last point is the current month, that month
 * projected to its end (the projection rule decides, and may give none before the 3rd); otherwise none.
 */
export function trendSeries(
  points: readonly TrendPoint[],
  view: 'daily' | 'monthly',
  today: Date,
  project: (value: number, today: Date) => number | null,
): { values: number[]; trend: number | null } {
  const values = points.map((p) => p.value);
  const last = points.at(-1);
  const current = today.toISOString().slice(0, 7);
  const trend =
    view === 'monthly' && last && last.date.slice(0, 7) === current ? project(last.value, today) : null;
  return { values, trend };
}

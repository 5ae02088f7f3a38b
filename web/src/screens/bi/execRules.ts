// PROVISIONAL: the server helper's domain module replaces these; kept until its commit lands.
export function shortNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e3) return `${(value / 1e3).toFixed(1)}K`;
  return value.toFixed(2);
}
export const chartView = (points: number) => (points > 13 ? 'daily' : 'monthly');
export function projectMonth(value: number, today: Date): number | null {
  const day = today.getUTCDate();
  if (day < 3) return null;
  const days = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0)).getUTCDate();
  return (value / (day - 2)) * days;
}
export const AGE_BUCKETS = ['0–6 m', '6–12 m', '1–2 y', '2–3 y', '> 3 y'] as const;

import type { ExecFilterChange, ExecFilterView } from './ExecFilters';
export const INITIAL_FILTERS: ExecFilterView = { period: 'last12Months', year: null, month: 0, mcc: 'All' };
export function nextFilters(f: ExecFilterView, c: ExecFilterChange): ExecFilterView {
  switch (c.kind) {
    case 'period':
      return { period: c.period, year: null, month: 0, mcc: 'All' };
    case 'year':
      return { ...f, period: null, year: c.year, month: 0 };
    case 'month':
      return f.year === null ? f : { ...f, month: c.month };
    case 'mcc':
      return { ...f, mcc: c.mcc };
  }
}
export const FIRST_YEAR = 2017;

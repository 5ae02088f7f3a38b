import {
  AGE_BUCKETS,
  biEndpoints,
  chartView,
  DAILY_MONTHS_KEPT,
  EXEC_FIRST_YEAR,
  type ExecFilterChange,
  type ExecFilterView,
  execWindow,
  INITIAL_EXEC_FILTERS,
  MONTH_NAMES,
  nextExecFilters,
  projectMonth,
  shortNumber,
} from '@paydesk/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { call } from '../../app/api';
import { biKeys } from '../../app/queryKeys';
import { execFigures, type TrendPoint, trendSeries } from './biModel';
import type { ShareBadge } from './ShareBadges';

const ages = (set: string) => set.split(',').map((n) => Number(n) || 0);

/** 'Nov 2026' on a monthly chart, 'Nov 3' on a daily one. */
function categoryLabel(date: string, view: 'daily' | 'monthly'): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return view === 'monthly'
    ? d.toLocaleString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
    : d.toLocaleString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

function periodLabel(f: ExecFilterView, monthTotal: boolean): string {
  const what = f.mcc === 'All' ? 'all MCCs' : `MCC ${f.mcc}`;
  if (f.period === 'last12Months') return `The last 12 months, by month, ${what}`;
  if (f.period === 'last30Days') return `The last 30 days, by day, ${what}`;
  if (f.month === 0) return `${f.year}, by month, ${what}`;
  return `${MONTH_NAMES[f.month - 1]} ${f.year}, ${monthTotal ? 'the month’s total' : 'by day'}, ${what}`;
}

export function useExec() {
  const today = useMemo(() => new Date(), []);
  const [iso, setIso] = useState<string | null>(null);
  const [tab, setTab] = useState<'iso' | 'merchant'>('iso');
  const [filters, setFilters] = useState<ExecFilterView>(INITIAL_EXEC_FILTERS);

  const all = useQuery({
    queryKey: biKeys.information(),
    queryFn: () => call(biEndpoints.allInformation),
  });
  const isos = useMemo(() => (all.data ?? []).map((r) => r.iso_name), [all.data]);
  const chosen = iso ?? isos[0] ?? null;
  const raw = all.data?.find((r) => r.iso_name === chosen);
  const groupIDs = raw ? raw.group_id.split(',') : [];

  const selectIso = useCallback((name: string) => {
    setIso(name);
    setFilters((f) => nextExecFilters(f, { kind: 'iso' }));
  }, []);
  const changeFilter = useCallback((c: ExecFilterChange) => setFilters((f) => nextExecFilters(f, c)), []);

  const { date, end, monthly, monthTotal } = execWindow(filters, today);
  const txBody = { groupIDs, date, end, monthly, mcc: filters.mcc };
  const tx = useQuery({
    queryKey: biKeys.transactions(txBody),
    queryFn: () => call(biEndpoints.transactions, txBody),
    enabled: raw !== undefined,
    placeholderData: keepPreviousData,
  });
  const incBody = { groupIDs, date, end, mcc: filters.mcc };
  const income = useQuery({
    queryKey: biKeys.income(incBody),
    queryFn: () => call(biEndpoints.income, incBody),
    enabled: raw !== undefined,
    placeholderData: keepPreviousData,
  });
  const mcc = useQuery({
    queryKey: biKeys.mcc(groupIDs),
    queryFn: () => call(biEndpoints.mcc, { groupIDs }),
    enabled: raw !== undefined,
  });

  const figures = useMemo(
    () => (tx.data && income.data ? execFigures(tx.data, income.data) : undefined),
    [tx.data, income.data],
  );

  const view = chartView(tx.data?.length ?? 0);
  const series = useMemo(() => {
    if (!tx.data || !income.data) return undefined;
    const build = (points: TrendPoint[]) => {
      const { values, trend } = trendSeries(points, view, today, projectMonth);
      return { categories: points.map((p) => categoryLabel(p.date, view)), values, trend };
    };
    return {
      volume: build(tx.data.map((r) => ({ date: r.txn_date, value: r.txn_volume }))),
      transactions: build(tx.data.map((r) => ({ date: r.txn_date, value: r.txn_count }))),
      net: build(income.data.map((r) => ({ date: r.income_date, value: r.net_income }))),
    };
  }, [tx.data, income.data, view, today]);

  const info = raw && {
    ...raw,
    open_age: ages(raw.open_age_set),
    closed_age: ages(raw.closed_age_set),
    badges: [
      { label: 'CBCAL', count: raw.cbcal, color: 'violet' },
      { label: 'ESQUIRE', count: raw.esquire, color: 'pink' },
      { label: 'CHSPK', count: raw.chesapeake, color: 'lime' },
      { label: 'PayLo', count: raw.pl_count, color: 'blue' },
      { label: 'Traditional', count: raw.tr_count, color: 'teal' },
      { label: 'High Risk', count: raw.hr_count, color: 'orange' },
      { label: 'Not Specified', count: raw.ns_count, color: 'gray' },
    ] satisfies ShareBadge[],
  };

  const years: number[] = [];
  for (let y = today.getUTCFullYear(); y >= EXEC_FIRST_YEAR; y--) years.push(y);

  return {
    isos,
    iso: chosen,
    selectIso,
    tab,
    setTab,
    filters,
    changeFilter,
    years,
    monthNames: MONTH_NAMES,
    mccOptions: (mcc.data ?? []).map((r) => ({ value: r.mcc_code, label: `${r.mcc_code} ${r.mcc_desc}` })),
    periodLabel: periodLabel(filters, monthTotal),
    // A month older than the kept days is one monthly point: the chart says why it has no days.
    chartNote: monthTotal
      ? `Daily figures are kept for the last ${DAILY_MONTHS_KEPT} months; this month shows its total.`
      : null,
    info,
    ageBuckets: AGE_BUCKETS,
    figures,
    view,
    series,
    mcc: mcc.data,
    money: (v: number) => `$${shortNumber(v)}`,
    // A whole count under a thousand reads as itself (4 chargebacks, not 4.00); averages keep their decimals.
    count: (v: number) => (Number.isInteger(v) && Math.abs(v) < 1000 ? String(v) : shortNumber(v)),
    // Disabled queries stay pending: without an ISO there is nothing loading, only a list that failed or is empty.
    loading: all.isPending || (raw !== undefined && (tx.isPending || income.isPending)),
    failed: all.isError || tx.isError || income.isError,
  };
}

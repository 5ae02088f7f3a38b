import { MONTH_NAMES } from '@paydesk/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { get, post } from '../../app/api';
import { biKeys } from '../../app/queryKeys';
import { execFigures, type IncomeRow, type TrendPoint, type TxnRow, trendSeries } from './biModel';
import type { ExecFilterChange, ExecFilterView } from './ExecFilters';
import {
  AGE_BUCKETS,
  chartView,
  FIRST_YEAR,
  INITIAL_FILTERS,
  nextFilters,
  projectMonth,
  shortNumber,
} from './execRules';
import type { MccRow } from './MccList';
import type { ShareBadge } from './ShareBadges';

// PROVISIONAL shapes (spec 3 §3 field names) until the domain contracts land.
interface IsoInfo {
  iso_name: string;
  group_id: string;
  approved_deals: number;
  first_deal: string | null;
  last_deal: string | null;
  average_days_bw_deals: string | null;
  open_deals: number;
  closed_deals: number;
  open_age_set: string;
  closed_age_set: string;
  cbcal: number;
  esquire: number;
  chesapeake: number;
  pl_count: number;
  tr_count: number;
  hr_count: number;
  ns_count: number;
}
const ages = (set: string) => set.split(',').map((n) => Number(n) || 0);

function dateOf(f: ExecFilterView, today: Date): { date: string; monthly: boolean } {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  if (f.period === 'last30Days')
    return {
      date: new Date(Date.UTC(y, m, today.getUTCDate() - 30)).toISOString().slice(0, 10),
      monthly: false,
    };
  if (f.period === 'last12Months')
    return { date: new Date(Date.UTC(y, m - 12, 1)).toISOString().slice(0, 10), monthly: true };
  if (f.month === 0) return { date: `${f.year}-01-01`, monthly: true };
  return { date: `${f.year}-${String(f.month).padStart(2, '0')}-01`, monthly: false };
}

/** 'Nov 2026' on a monthly chart, 'Nov 3' on a daily one. */
function categoryLabel(date: string, view: 'daily' | 'monthly'): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return view === 'monthly'
    ? d.toLocaleString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
    : d.toLocaleString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

function periodLabel(f: ExecFilterView): string {
  const what = f.mcc === 'All' ? 'all MCCs' : `MCC ${f.mcc}`;
  if (f.period === 'last12Months') return `The last 12 months, by month, ${what}`;
  if (f.period === 'last30Days') return `The last 30 days, by day, ${what}`;
  if (f.month === 0) return `${f.year}, by month, ${what}`;
  return `${MONTH_NAMES[f.month - 1]} ${f.year}, by day, ${what}`;
}

export function useExec() {
  const today = useMemo(() => new Date(), []);
  const [iso, setIso] = useState<string | null>(null);
  const [tab, setTab] = useState<'iso' | 'merchant'>('iso');
  const [filters, setFilters] = useState<ExecFilterView>(INITIAL_FILTERS);

  const all = useQuery({
    queryKey: biKeys.information(),
    queryFn: () => get<IsoInfo[]>('/api/exec/iso/GetAllInformation'),
  });
  const isos = useMemo(() => (all.data ?? []).map((r) => r.iso_name), [all.data]);
  const chosen = iso ?? isos[0] ?? null;
  const raw = all.data?.find((r) => r.iso_name === chosen);
  const groupIDs = raw ? raw.group_id.split(',') : [];

  const selectIso = useCallback((name: string) => {
    setIso(name);
    setFilters((f) => ({ ...f, mcc: 'All' }));
  }, []);
  const changeFilter = useCallback((c: ExecFilterChange) => setFilters((f) => nextFilters(f, c)), []);

  const { date, monthly } = dateOf(filters, today);
  const txBody = { groupIDs, date, monthly, mcc: filters.mcc };
  const tx = useQuery({
    queryKey: biKeys.transactions(txBody),
    queryFn: () => post<TxnRow[]>('/api/exec/iso/GetTransactions', txBody),
    enabled: raw !== undefined,
    placeholderData: keepPreviousData,
  });
  const incBody = { groupIDs, date, mcc: filters.mcc };
  const income = useQuery({
    queryKey: biKeys.income(incBody),
    queryFn: () => post<IncomeRow[]>('/api/exec/iso/isoGetIncome', incBody),
    enabled: raw !== undefined,
    placeholderData: keepPreviousData,
  });
  const mcc = useQuery({
    queryKey: biKeys.mcc(groupIDs),
    queryFn: () => post<MccRow[]>('/api/exec/iso/GetMCC', { groupIDs }),
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
  for (let y = today.getUTCFullYear(); y >= FIRST_YEAR; y--) years.push(y);

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
    periodLabel: periodLabel(filters),
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

import { monthStart } from '@paydesk/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { get, post } from '../../app/api';
import { isoAnalyticsKeys } from '../../app/queryKeys';
import type { MapBand } from '../../components/usMap';
import { GROUPS_STORAGE_KEY, listedGroups, parseStoredGroups, STATS_FIRST_MONTH } from './analyticsModel';
import type { StatsRow } from './StatsTable';

// PROVISIONAL shapes (spec 2 §3, §7 field names) until the domain contracts land.
interface OptionsAnswer {
  output: { partner: string; iso: string }[];
}
interface DataAnswer {
  output: [
    { GroupLevel1Name: string; OpenDate: string; ApprovalCount: number }[],
    { state: string; cnt: number }[],
    StatsRow[],
  ];
}
// PROVISIONAL until the domain's bands land: spec 2 §9's seven bands.
const BANDS: MapBand[] = [
  { min: 0, below: 10, color: '#e7f5ff', label: 'under 10' },
  { min: 10, below: 25, color: '#d0ebff', label: '10 – 24' },
  { min: 25, below: 50, color: '#a5d8ff', label: '25 – 49' },
  { min: 50, below: 100, color: '#74c0fc', label: '50 – 99' },
  { min: 100, below: 500, color: '#4dabf7', label: '100 – 499' },
  { min: 500, below: 1000, color: '#1c7ed6', label: '500 – 999' },
  { min: 1000, below: null, color: '#1864ab', label: '1,000 or more' },
];

function readStored(): string[] {
  let text: string | null = null;
  try {
    text = sessionStorage.getItem(GROUPS_STORAGE_KEY);
  } catch {
    return [];
  }
  const groups = parseStoredGroups(text);
  if (groups === null && text !== null) {
    try {
      sessionStorage.removeItem(GROUPS_STORAGE_KEY);
    } catch {
      // Storage refused: nothing is kept either way.
    }
  }
  return groups ?? [];
}

function store(groups: readonly string[]) {
  try {
    sessionStorage.setItem(GROUPS_STORAGE_KEY, JSON.stringify(groups));
  } catch {
    // Storage full or refused: the choice just does not survive a reload.
  }
}

/** The ISO analytics screen's state: the chosen groups (kept in session storage), the stats months, the data. */
export function useIsoAnalytics() {
  const current = monthStart(new Date());
  const [selection, setSelectionState] = useState<string[]>(readStored);
  const [from, setFrom] = useState(STATS_FIRST_MONTH);
  const [to, setTo] = useState(current);

  const setSelection = useCallback((next: string[]) => {
    setSelectionState(next);
    store(next);
  }, []);

  const options = useQuery({
    queryKey: isoAnalyticsKeys.options(),
    queryFn: () => get<OptionsAnswer>('/api/isoanalyticsoptions'),
    staleTime: 5 * 60_000,
  });
  const offered = useMemo(
    () => [...new Set((options.data?.output ?? []).map((o) => o.partner))].sort((a, b) => a.localeCompare(b)),
    [options.data],
  );
  const ready = options.data !== undefined;
  const groups = ready ? listedGroups(selection, offered) : selection;
  useEffect(() => {
    if (ready && groups.length !== selection.length) setSelection(groups);
  }, [ready, groups, selection, setSelection]);

  const body = { groups, start: from, end: to };
  const data = useQuery({
    queryKey: isoAnalyticsKeys.data(body),
    queryFn: () => post<DataAnswer>('/api/isoanalyticsdata', body),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const view = useMemo(() => {
    if (!data.data) return undefined;
    const [graph, map, stats] = data.data.output;
    return {
      approvals: graph.map((g) => ({
        partner: g.GroupLevel1Name,
        month: g.OpenDate.slice(0, 7),
        count: g.ApprovalCount,
      })),
      states: map.map((m) => ({ state: m.state, count: m.cnt })),
      stats,
    };
  }, [data.data]);

  return {
    current,
    selection: groups,
    setSelection,
    options: offered,
    optionsFailed: options.isError,
    bands: BANDS,
    from,
    setFrom,
    to,
    setTo,
    data: view,
    loading: data.isPending && !options.isError,
    failed: data.isError || options.isError,
  };
}

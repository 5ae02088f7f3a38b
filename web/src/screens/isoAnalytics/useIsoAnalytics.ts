import { biEndpoints, MAP_BANDS, monthStart, STATS_FIRST_MONTH } from '@paydesk/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { call } from '../../app/api';
import { isoAnalyticsKeys } from '../../app/queryKeys';
import { GROUPS_STORAGE_KEY, listedGroups, parseStoredGroups } from './analyticsModel';

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
    queryFn: () => call(biEndpoints.isoAnalyticsOptions),
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
    queryFn: () => call(biEndpoints.isoAnalyticsData, body),
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
    bands: MAP_BANDS,
    from,
    setFrom,
    to,
    setTo,
    data: view,
    loading: data.isPending && !options.isError,
    failed: data.isError || options.isError,
  };
}

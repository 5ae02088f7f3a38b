import {
  type FinAverageBody,
  type FinDataBody,
  financialEndpoints,
  financialPaths,
  monthStart,
} from '@paydesk/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { call } from '../../app/api';
import { financialKeys } from '../../app/queryKeys';
import {
  averageWindow,
  chartStart,
  EMPTY_SELECTION,
  type FinSelection,
  parseSelection,
  pruneSelection,
  SELECTION_STORAGE_KEY,
  type SelectedMonth,
  sameSelection,
  serializeSelection,
  toggleMonth,
} from './financialModel';

function readStored(): FinSelection {
  let text: string | null = null;
  try {
    text = sessionStorage.getItem(SELECTION_STORAGE_KEY);
  } catch {
    return EMPTY_SELECTION;
  }
  const selection = parseSelection(text);
  if (selection === null && text !== null) {
    try {
      sessionStorage.removeItem(SELECTION_STORAGE_KEY);
    } catch {
      // Storage refused: nothing is kept either way.
    }
  }
  return selection ?? EMPTY_SELECTION;
}

function store(selection: FinSelection) {
  try {
    sessionStorage.setItem(SELECTION_STORAGE_KEY, serializeSelection(selection));
  } catch {
    // Storage full or refused: the selection just does not survive a reload.
  }
}

/** Spec document 1 §8: a failed dashboard call is only logged; the card says its figures are missing. */
function useLogged(path: string, error: unknown) {
  useEffect(() => {
    if (error) console.error(`${path} failed:`, error);
  }, [path, error]);
}

/** The financial dashboard's state and figures: the filter selection, the averaging period and both calls. */
export function useFinancial() {
  const current = monthStart(new Date());
  const [selection, setSelectionState] = useState<FinSelection>(readStored);
  const [selectedMonth, setSelectedMonth] = useState<SelectedMonth>(null);

  const setSelection = useCallback((next: FinSelection) => {
    setSelectionState(next);
    store(next);
  }, []);

  const options = useQuery({
    queryKey: financialKeys.options(),
    queryFn: () => call(financialEndpoints.groups),
    staleTime: 5 * 60_000,
  });
  useLogged(financialPaths.groups, options.error);

  // A stored value the server no longer lists would make every call fail, so only listed values are sent;
  // the figures wait for the options to know which those are.
  const ready = options.data !== undefined;
  const filters = options.data ? pruneSelection(selection, options.data) : selection;
  useEffect(() => {
    if (ready && !sameSelection(filters, selection)) setSelection(filters);
  }, [ready, filters, selection, setSelection]);

  const { start, end } = averageWindow(selectedMonth, current);
  const averageBody: FinAverageBody = { filters, start, end };
  const average = useQuery({
    queryKey: financialKeys.average(averageBody),
    queryFn: () => call(financialEndpoints.average, averageBody),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  useLogged(financialPaths.average, average.error);

  const dataBody: FinDataBody = { filters, start: chartStart(current) };
  const series = useQuery({
    queryKey: financialKeys.data(dataBody),
    queryFn: () => call(financialEndpoints.data, dataBody),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  useLogged(financialPaths.data, series.error);

  const clickMonth = useCallback((month: string) => setSelectedMonth((m) => toggleMonth(m, month)), []);
  const clearMonth = useCallback(() => setSelectedMonth(null), []);

  return {
    current,
    selection: filters,
    setSelection,
    selectedMonth,
    clickMonth,
    clearMonth,
    options: {
      data: options.data,
      loading: options.isPending,
      failed: options.isError,
    },
    average: {
      filtered: average.data?.output[0],
      all: average.data?.output[1],
      loading: average.isPending && !options.isError,
      /** Figures of the previous period or filters, shown dimmed while the new ones load. */
      stale: average.isPlaceholderData,
      failed: average.isError || options.isError,
    },
    series: {
      rows: series.data?.output,
      loading: series.isPending && !options.isError,
      stale: series.isPlaceholderData,
      failed: series.isError || options.isError,
    },
  };
}

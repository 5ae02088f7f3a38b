import {
  PROCESSING_FIRST_YEAR,
  type ProcessingInfoBody,
  processingDt,
  processingEndpoints,
  processingPaths,
} from '@paydesk/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from '../../app/api';
import { processingKeys } from '../../app/queryKeys';
import { useYearParam } from './useYearParam';

/** A live year's figures are re-read this often: the demo data (and real settlement files) arrive during the day. */
export const LIVE_REFRESH_MS = 5 * 60_000;

/** Spec document 2 §8: a failed data call is only logged; the card says its figures are missing. */
function useLogged(path: string, error: unknown) {
  useEffect(() => {
    if (error) console.error(`${path} failed:`, error);
  }, [path, error]);
}

/**
 * The processing dashboard's year (in the URL) and its two calls: the current year live (historic false,
 * through today, refreshed), an earlier one historic (through 31 December), as spec document 2 §4 says.
 */
export function useProcessing() {
  const now = new Date();
  const current = now.getUTCFullYear();
  const [year, setYear] = useYearParam(PROCESSING_FIRST_YEAR, current);
  const body: ProcessingInfoBody = processingDt(year, now);
  const live = !body.historic;

  const info = useQuery({
    queryKey: processingKeys.info(body),
    queryFn: () => call(processingEndpoints.info, body),
    placeholderData: keepPreviousData,
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
  useLogged(processingPaths.info, info.error);

  const activation = useQuery({
    queryKey: processingKeys.activation(body.dt),
    queryFn: () => call(processingEndpoints.activation, { dt: body.dt }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
  useLogged(processingPaths.activation, activation.error);

  return {
    year,
    setYear,
    first: PROCESSING_FIRST_YEAR,
    current,
    live,
    /** The dashboard month: this month for the live year, December for a historic one. */
    month: `${body.dt.slice(0, 7)}-01`,
    info: {
      data: info.data,
      loading: info.isPending,
      /** The previous year's figures, dimmed while the chosen year's load. */
      stale: info.isPlaceholderData,
      failed: info.isError,
    },
    activation: {
      data: activation.data,
      loading: activation.isPending,
      stale: activation.isPlaceholderData,
      failed: activation.isError,
    },
  };
}

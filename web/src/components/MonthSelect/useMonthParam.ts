import { isMonthStart } from '@paydesk/domain';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { latestParams } from '../DataTable/useTableState';

/** A month in [min, max] from a URL value; anything else gives the fallback. */
export function clampMonth(value: string | null, min: string, max: string, fallback: string): string {
  if (value === null || !isMonthStart(value)) return fallback;
  if (value < min) return min;
  if (value > max) return max;
  return value;
}

/** The month on screen, kept in the URL as `dt`; changing it takes every table back to page 1. */
export function useMonthParam(min: string, max: string, fallback: string): [string, (month: string) => void] {
  const [params, setParams] = useSearchParams();
  const month = clampMonth(params.get('dt'), min, max, fallback);
  const setMonth = useCallback(
    (next: string) =>
      setParams(() => {
        const out = latestParams();
        out.set('dt', next);
        // Every table of the page goes back to its first page, namespaced ones (`ach.page`) too.
        for (const key of [...out.keys()]) if (key === 'page' || key.endsWith('.page')) out.delete(key);
        return out;
      }),
    [setParams],
  );
  return [month, setMonth];
}

import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** A year in [first, current] from a URL value; anything unreadable gives the current year. */
export function clampYear(value: string | null, first: number, current: number): number {
  if (value === null || !/^\d{4}$/.test(value)) return current;
  const year = Number(value);
  if (year < first) return first;
  if (year > current) return current;
  return year;
}

/**
 * The year on screen, kept in the URL as `yr` so a reload or a shared link shows the same year; the current
 * year is left out of the address, as it is what the page opens on.
 */
export function useYearParam(first: number, current: number): [number, (year: number) => void] {
  const [params, setParams] = useSearchParams();
  const year = clampYear(params.get('yr'), first, current);
  const setYear = useCallback(
    (next: number) =>
      setParams(
        (previous) => {
          const out = new URLSearchParams(previous);
          if (next === current) out.delete('yr');
          else out.set('yr', String(next));
          return out;
        },
        { replace: false },
      ),
    [setParams, current],
  );
  return [year, setYear];
}

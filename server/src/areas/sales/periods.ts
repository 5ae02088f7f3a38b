import { addMonths, monthStart, SALES_FIRST_MONTH } from '@paydesk/domain';
import { badRequest } from '../../platform/errors';

/** A half-open range of days [from, to) in UTC. */
export interface Period {
  from: string;
  to: string;
}

const DAY = 86_400_000;
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (day: string, n: number) => isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY));

export const todayIso = () => isoDay(new Date());
export const today = (): Period => ({ from: todayIso(), to: addDays(todayIso(), 1) });
export const yesterday = (): Period => ({ from: addDays(todayIso(), -1), to: todayIso() });

/** The month `cntr` months from the current one (0 = this month), refused before January 2019. */
export function monthOfCntr(cntr: number): Period {
  const from = addMonths(monthStart(new Date()), cntr);
  if (from < SALES_FIRST_MONTH) throw badRequest('cntr reaches before January 2019');
  return { from, to: addMonths(from, 1) };
}

export function monthOf(day: string): Period {
  const from = `${day.slice(0, 7)}-01`;
  return { from, to: addMonths(from, 1) };
}

export function yearOf(day: string): Period {
  return { from: `${day.slice(0, 4)}-01-01`, to: `${Number(day.slice(0, 4)) + 1}-01-01` };
}

import { MONTH_NAMES, PCI_FIRST_BILLING_YEAR } from '@paydesk/domain';

/** A billing month as chosen on the Billing and Commissions tabs; `month` null until one is picked. */
export interface ChosenMonth {
  year: number;
  month: number | null;
}

/** Spec §5, §9: billing years run from 2022 to the current year, newest first. */
export function billingYears(today: Date): number[] {
  const years: number[] = [];
  for (let y = today.getFullYear(); y >= PCI_FIRST_BILLING_YEAR; y -= 1) years.push(y);
  return years;
}

/**
 * The month in the address (?year=2026&month=10). A year out of range falls back to the current year and a month
 * that is not 1-12 to none (the spec's -1): nothing loads until the user picks one.
 */
export function chosenMonth(params: URLSearchParams, today: Date): ChosenMonth {
  const years = billingYears(today);
  const year = Number(params.get('year'));
  const month = Number(params.get('month'));
  return {
    year: years.includes(year) ? year : today.getFullYear(),
    month: Number.isInteger(month) && month >= 1 && month <= 12 ? month : null,
  };
}

/** "October 2026". */
export function monthLabel({ year, month }: { year: number; month: number }): string {
  return `${MONTH_NAMES[month - 1] ?? month} ${year}`;
}

/**
 * Whether a month that has no run yet may be billed today: the current month or the previous one (a late run).
 * The server refuses earlier months; a month still to come is not billed ahead either.
 */
export function billableNow({ year, month }: { year: number; month: number }, today: Date): boolean {
  const chosen = year * 12 + (month - 1);
  const current = today.getFullYear() * 12 + today.getMonth();
  return chosen === current || chosen === current - 1;
}

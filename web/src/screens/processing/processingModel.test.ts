import type { ProcessingInfo } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import {
  activationsByMonth,
  averageDaily,
  bankSeries,
  budgetByMonth,
  dailyEmptyText,
  dailySeries,
  dayLabel,
  nothingToDraw,
  orderedBanks,
  profileSeries,
  trendingNote,
  volumeLabel,
  yearMonths,
} from './processingModel';

const headline: ProcessingInfo['headline'] = {
  month: '2026-03-01',
  asOf: '2026-03-02',
  monthToDate: 200,
  trending: 3100,
  averageDaily: 100,
  elapsedDays: 2,
  periodDays: 31,
  basis: 'month',
  budget: 4000,
  budgetPercent: 77.5,
};

const info: ProcessingInfo = {
  monthly: [
    { bank: 'PPS', mth: '2026-01-01', txamt: 10, txct: 1 },
    { bank: 'CBCAL', mth: '2026-01-01', txamt: 20, txct: 2 },
    { bank: 'CBCAL', mth: '2026-03-01', txamt: 5, txct: 1 },
    { bank: 'Acme', mth: '2026-02-01', txamt: 7, txct: 1 },
  ],
  byProfile: [
    { processor: 'Unassigned', mth: '2026-02-01', txamt: 3 },
    { processor: 'Traditional', mth: '2026-02-01', txamt: 4 },
  ],
  daily: [
    { day: '2026-03-03', txamt: 0, benchamt: 30, budgetamt: 129.03, benchamtbymerch: 25 },
    { day: '2026-03-01', txamt: 120, benchamt: 90, budgetamt: 129.03, benchamtbymerch: 80 },
    { day: '2026-03-02', txamt: 80, benchamt: 95, budgetamt: 129.03, benchamtbymerch: 85 },
  ],
  averages: [
    { mth: '2026-01-01', days: 31, txamt: 310, avgamt: 10 },
    { mth: '2026-03-01', days: 2, txamt: 200, avgamt: 100 },
  ],
  monthBudget: [{ start: '2026-03-01', end: '2026-03-31', budget: 4000 }],
  bankPeriods: [],
  yearlyBudget: [
    { bank: 'CBCAL', mth: '2026-01-01', budget: 100 },
    { bank: 'PPS', mth: '2026-01-01', budget: 50 },
    { bank: 'CBCAL', mth: '2026-03-01', budget: 4000 },
  ],
  headline,
};
const months = yearMonths(2026);

describe('the monthly series of a year in progress', () => {
  it('gives one series per bank, the spec’s banks in its order first, then others by name', () => {
    const series = bankSeries(info, months);
    expect(series.map((s) => s.name)).toEqual(['CBCAL', 'PPS', 'Acme']);
    // January to March have begun (zero where a bank had nothing); April on have not (null).
    expect(series[0]?.values.slice(0, 4)).toEqual([20, 0, 5, null]);
    expect(series[1]?.values.slice(0, 4)).toEqual([10, 0, 0, null]);
    expect(series[2]?.values.slice(0, 4)).toEqual([0, 7, 0, null]);
    expect(series[0]?.values).toHaveLength(12);
  });

  it('orders banks for the budget grid as the charts stack them', () => {
    expect(orderedBanks(['PPS', 'Acme', 'Chesapeake', 'CBCAL', 'Esquire'])).toEqual([
      'CBCAL',
      'Esquire',
      'Chesapeake',
      'PPS',
      'Acme',
    ]);
  });

  it('orders the profiles as the spec lists them', () => {
    expect(profileSeries(info, months).map((s) => s.name)).toEqual(['Traditional', 'Unassigned']);
  });

  it('adds the banks’ budgets per month and leaves a month without any budget empty', () => {
    expect(budgetByMonth(info, months).slice(0, 4)).toEqual([150, null, 4000, null]);
  });

  it('reads the average daily volume per month, empty after the dashboard month', () => {
    expect(averageDaily(info, months).slice(0, 4)).toEqual([10, 0, 100, null]);
  });

  it('counts activations per month, empty after the dashboard month', () => {
    const rows = [
      { mth: '2026-02-01', cnt: 4 },
      { mth: '2026-03-01', cnt: 2 },
    ];
    expect(activationsByMonth(rows, months, '2026-03-01').slice(0, 4)).toEqual([0, 4, 2, null]);
  });
});

describe('the daily series', () => {
  const rest = (n: number) => Array.from({ length: n }, () => null);

  it('runs over every day of the month, volume and benchmarks stopping where the figures stop', () => {
    const daily = dailySeries(info);
    expect(daily.categories).toHaveLength(31);
    expect(daily.categories.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(daily.categories.at(-1)).toBe('31');
    // Day 3 is listed but lies after asOf: no volume yet, its benchmarks are known.
    expect(daily.volume).toEqual([120, 80, null, ...rest(28)]);
    expect(daily.benchmark).toEqual([90, 95, 30, ...rest(28)]);
    expect(daily.benchmarkSameMerchants).toEqual([80, 85, 25, ...rest(28)]);
    // The budget line runs through the month at the listed amount a day.
    expect(daily.budget).toEqual(Array.from({ length: 31 }, () => 129.03));
  });

  it('spreads the month budget over its days when no day is listed, draws no volume, and no budget without one', () => {
    const daily = dailySeries({ ...info, daily: [], headline: { ...headline, asOf: null } });
    expect(daily.volume).toEqual(rest(31));
    expect(nothingToDraw(daily.volume)).toBe(true);
    expect(daily.budget).toEqual(Array.from({ length: 31 }, () => 129.03));
    // No budget: no line at all, not one at zero (the listed days carry budgetamt 0 then).
    const none = dailySeries({
      ...info,
      daily: info.daily.map((r) => ({ ...r, budgetamt: 0 })),
      monthBudget: [{ start: '2026-03-01', end: '2026-03-31', budget: 0 }],
    });
    expect(none.budget).toEqual(rest(31));
    expect(dailySeries({ ...info, daily: [], monthBudget: [] }).budget).toEqual(rest(31));
  });

  it('says why there is no daily chart: no figures yet, or a month kept as a total only', () => {
    expect(dailyEmptyText({ ...info, daily: [], headline: { ...headline, monthToDate: 0 } })).toBe(
      'No figures for March 2026 yet.',
    );
    expect(
      dailyEmptyText({ ...info, daily: [], headline: { ...headline, monthToDate: 66_306_245.34 } }),
    ).toBe(
      'Day-by-day figures are not kept for March 2026, only its month total ($66.3M), shown in the monthly charts.',
    );
  });
});

describe('labels', () => {
  it('writes volumes in dollars with k, M and B', () => {
    expect(volumeLabel(950)).toBe('$950');
    expect(volumeLabel(1_234_567)).toBe('$1.23M');
    expect(volumeLabel(2_500_000_000)).toBe('$2.5B');
    expect(volumeLabel(-1500)).toBe('-$1.5k');
  });

  it('names a day by month and day', () => {
    expect(dayLabel('2026-03-02')).toBe('Mar 2');
    expect(dayLabel('2026-12-31')).toBe('Dec 31');
  });

  it('says how the trend was reached', () => {
    expect(trendingNote(headline)).toBe('Average daily volume $100 over 2 of 31 days × 31 days.');
    expect(trendingNote({ ...headline, basis: 'previousMonth', averageDaily: 1500 })).toContain(
      'last month’s average daily volume ($1.5k) × 31 days',
    );
    expect(trendingNote({ ...headline, basis: 'complete' })).toBe(
      'The month is over: its volume ÷ 31 days, against the budget as it ended.',
    );
  });
});

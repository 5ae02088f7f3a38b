import { describe, expect, it } from 'vitest';
import { hasPermission } from '../access';
import { emailReportBody, processingInfoBody, saveBudgetBody } from '../contracts/processing';
import {
  budgetPercent,
  budgetPeriod,
  daysBetween,
  firstBusinessDay,
  formatVolume,
  isHistoricYear,
  processingDt,
  processingYears,
  quarterMonths,
  reportQuarter,
  reportQuarters,
  subscriptionDue,
  trendingVolume,
} from './rules';

const at = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('formatVolume', () => {
  it('shows amounts under a thousand whole', () => {
    expect(formatVolume(0)).toBe('0');
    expect(formatVolume(0.4)).toBe('0');
    expect(formatVolume(999)).toBe('999');
    expect(formatVolume(12.6)).toBe('13');
  });
  it('abbreviates thousands, millions and billions with three significant digits', () => {
    expect(formatVolume(1000)).toBe('1k');
    expect(formatVolume(1500)).toBe('1.5k');
    expect(formatVolume(12_345)).toBe('12.3k');
    expect(formatVolume(123_456)).toBe('123k');
    expect(formatVolume(1_234_567)).toBe('1.23M');
    expect(formatVolume(45_600_000)).toBe('45.6M');
    expect(formatVolume(2_000_000_000)).toBe('2B');
    expect(formatVolume(1_234_000_000_000)).toBe('1234B');
  });
  it('moves a value that rounds up to the next scale into it', () => {
    expect(formatVolume(999.6)).toBe('1k');
    expect(formatVolume(999_950)).toBe('1M');
    expect(formatVolume(999_600_000)).toBe('1B');
  });
  it('keeps the sign and marks a value that is not a number', () => {
    expect(formatVolume(-2500)).toBe('-2.5k');
    expect(formatVolume(-7)).toBe('-7');
    expect(formatVolume(Number.NaN)).toBe('–');
  });
});

describe('budget period and days', () => {
  it('is the calendar month, every day counting', () => {
    expect(budgetPeriod('2026-02-01')).toEqual({ start: '2026-02-01', end: '2026-02-28', days: 28 });
    expect(budgetPeriod('2024-02-01').days).toBe(29);
    expect(budgetPeriod('2026-12-01')).toEqual({ start: '2026-12-01', end: '2026-12-31', days: 31 });
  });
  it('counts both ends and never goes negative', () => {
    expect(daysBetween('2026-11-01', '2026-11-01')).toBe(1);
    expect(daysBetween('2026-11-05', '2026-11-01')).toBe(0);
  });
});

describe('trendingVolume', () => {
  const nov = { start: '2026-11-01', end: '2026-11-30' };
  it('projects the month from its own average daily volume from the third day on', () => {
    const t = trendingVolume({ ...nov, monthToDate: 300, asOf: '2026-11-03', previousMonthAverageDaily: 50 });
    expect(t).toEqual({ volume: 3000, averageDaily: 100, elapsedDays: 3, periodDays: 30, basis: 'month' });
  });
  it("uses last month's average daily volume on the first two days", () => {
    const day1 = trendingVolume({
      ...nov,
      monthToDate: 10,
      asOf: '2026-11-01',
      previousMonthAverageDaily: 50,
    });
    expect(day1).toMatchObject({ volume: 1500, averageDaily: 50, elapsedDays: 1, basis: 'previousMonth' });
    const day2 = trendingVolume({
      ...nov,
      monthToDate: 30,
      asOf: '2026-11-02',
      previousMonthAverageDaily: 50,
    });
    expect(day2).toMatchObject({ volume: 1500, elapsedDays: 2, basis: 'previousMonth' });
  });
  it('falls back to the month itself on the first days when last month had no volume', () => {
    const none = trendingVolume({
      ...nov,
      monthToDate: 40,
      asOf: '2026-11-02',
      previousMonthAverageDaily: null,
    });
    expect(none).toMatchObject({ volume: 600, averageDaily: 20, basis: 'month' });
    const zero = trendingVolume({
      ...nov,
      monthToDate: 40,
      asOf: '2026-11-02',
      previousMonthAverageDaily: 0,
    });
    expect(zero.basis).toBe('month');
  });
  it('projects nothing before the month has data', () => {
    const t = trendingVolume({ ...nov, monthToDate: 0, asOf: '2026-10-31', previousMonthAverageDaily: null });
    expect(t).toMatchObject({ volume: 0, averageDaily: 0, elapsedDays: 0, basis: 'month' });
  });
  it('gives the actual volume once the period is over', () => {
    const t = trendingVolume({ ...nov, monthToDate: 900, asOf: '2026-12-05', previousMonthAverageDaily: 10 });
    expect(t).toEqual({ volume: 900, averageDaily: 30, elapsedDays: 30, periodDays: 30, basis: 'complete' });
  });
});

describe('budgetPercent', () => {
  it('is the trending volume over the budget with one decimal', () => {
    expect(budgetPercent(1234, 1000)).toBe(123.4);
    expect(budgetPercent(1, 3)).toBe(33.3);
  });
  it('is null without a budget', () => {
    expect(budgetPercent(100, 0)).toBeNull();
    expect(budgetPercent(100, null)).toBeNull();
  });
});

describe('year navigation', () => {
  it('runs from 2020 to the current year, earlier years historic', () => {
    expect(processingYears(at('2022-06-01'))).toEqual([2020, 2021, 2022]);
    expect(isHistoricYear(2021, at('2022-06-01'))).toBe(true);
    expect(isHistoricYear(2022, at('2022-06-01'))).toBe(false);
  });
  it('asks for today when live and the last day of the year when historic', () => {
    expect(processingDt(2026, at('2026-11-22'))).toEqual({ dt: '2026-11-22', historic: false });
    expect(processingDt(2024, at('2026-11-22'))).toEqual({ dt: '2024-12-31', historic: true });
  });
});

describe('report quarters', () => {
  it('offers the quarter-to-month report for last month and six prior quarters, newest first', () => {
    const q = reportQuarters(at('2026-11-22'));
    expect(q.map((x) => [x.yr, x.qr, x.complete])).toEqual([
      [2026, 4, false],
      [2026, 3, true],
      [2026, 2, true],
      [2026, 1, true],
      [2025, 4, true],
      [2025, 3, true],
      [2025, 2, true],
    ]);
    expect(q[0]).toMatchObject({ start: '2026-10-01', through: '2026-10-01', label: '2026 Q4 (to October)' });
    expect(q[1]).toMatchObject({ start: '2026-07-01', through: '2026-09-01', label: '2026 Q3' });
  });
  it('makes the first button a whole quarter when last month closed it', () => {
    const q = reportQuarters(at('2026-10-05'));
    expect(q[0]).toMatchObject({ yr: 2026, qr: 3, complete: true, through: '2026-09-01' });
    expect(q[6]).toMatchObject({ yr: 2025, qr: 1 });
  });
  it('crosses the year back in January', () => {
    expect(reportQuarters(at('2027-01-10'))[0]).toMatchObject({ yr: 2026, qr: 4, complete: true });
  });
  it('leaves out quarters before 2020', () => {
    const q = reportQuarters(at('2020-05-15'));
    expect(q.map((x) => [x.yr, x.qr])).toEqual([
      [2020, 2],
      [2020, 1],
    ]);
    expect(q[0]).toMatchObject({ through: '2020-04-01', complete: false });
  });
  it('refuses a quarter without a whole month yet or before the floor', () => {
    expect(reportQuarter(2026, 4, at('2026-10-20'))).toBeNull();
    expect(reportQuarter(2027, 1, at('2026-11-22'))).toBeNull();
    expect(reportQuarter(2019, 4, at('2026-11-22'))).toBeNull();
  });
  it('lists the months a report covers', () => {
    expect(quarterMonths({ start: '2026-10-01', through: '2026-12-01' })).toEqual([
      '2026-10-01',
      '2026-11-01',
      '2026-12-01',
    ]);
    expect(quarterMonths({ start: '2026-10-01', through: '2026-10-01' })).toEqual(['2026-10-01']);
  });
});

describe('scheduled reports', () => {
  const holidays = new Set(['2026-01-01', '2026-06-19']);
  it('finds the first business day past weekends and holidays', () => {
    expect(firstBusinessDay('2026-01-20', holidays)).toBe('2026-01-02');
    expect(firstBusinessDay('2026-11-22', holidays)).toBe('2026-11-02');
    expect(firstBusinessDay('2026-08-15', holidays)).toBe('2026-08-03');
  });
  it('sends monthly ones every first business day and quarterly ones when a quarter has closed', () => {
    expect(subscriptionDue('monthly', '2026-11-02', holidays)).toBe(true);
    expect(subscriptionDue('monthly', '2026-11-03', holidays)).toBe(false);
    expect(subscriptionDue('quarterly', '2026-11-02', holidays)).toBe(false);
    expect(subscriptionDue('quarterly', '2026-10-01', holidays)).toBe(true);
    expect(subscriptionDue('quarterly', '2026-01-02', holidays)).toBe(true);
    expect(subscriptionDue('quarterly', '2026-01-01', holidays)).toBe(false);
  });
});

describe('contract bounds', () => {
  const year = new Date().getUTCFullYear();
  it('takes dt in a year from 2020 to the current one', () => {
    expect(processingInfoBody.safeParse({ dt: '2020-01-01', historic: true }).success).toBe(true);
    expect(processingInfoBody.safeParse({ dt: '2019-12-31', historic: true }).success).toBe(false);
    expect(processingInfoBody.safeParse({ dt: `${year + 1}-01-01`, historic: false }).success).toBe(false);
    expect(processingInfoBody.safeParse({ dt: '2024-02-30', historic: true }).success).toBe(false);
    expect(processingInfoBody.safeParse({ dt: '2024-02-01' }).success).toBe(false);
  });
  it('bounds the report request', () => {
    const ok = { rec: 'A@Example.com', yr: year, qr: 1 };
    expect(emailReportBody.parse(ok).rec).toBe('a@example.com');
    expect(emailReportBody.safeParse({ ...ok, qr: 5 }).success).toBe(false);
    expect(emailReportBody.safeParse({ ...ok, yr: 2019 }).success).toBe(false);
    expect(emailReportBody.safeParse({ ...ok, rec: 'nobody' }).success).toBe(false);
  });
  it('takes budgets of at most two decimals, not negative', () => {
    const ok = { bank: 'CBCAL', mth: '2026-01-01', budget: 1000.25 };
    expect(saveBudgetBody.safeParse(ok).success).toBe(true);
    expect(saveBudgetBody.safeParse({ ...ok, budget: -1 }).success).toBe(false);
    expect(saveBudgetBody.safeParse({ ...ok, budget: 1.234 }).success).toBe(false);
    expect(saveBudgetBody.safeParse({ ...ok, mth: '2026-01-02' }).success).toBe(false);
    expect(saveBudgetBody.safeParse({ ...ok, mth: '2019-12-01' }).success).toBe(false);
  });
  it('lets finance_admin and admin edit budgets, nobody else', () => {
    const who = (department: 'admin' | 'finance_admin' | 'finance' | 'sales_admin' | 'sales') =>
      hasPermission({ department, capabilities: [] }, 'edit_budgets');
    expect([who('admin'), who('finance_admin'), who('finance'), who('sales_admin'), who('sales')]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

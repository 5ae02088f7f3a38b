import { describe, expect, it } from 'vitest';
import { incomeBody, isoAnalyticsBody, mccBody, transactionsBody } from '../contracts/bi';
import {
  AGE_BUCKETS,
  chartView,
  DAILY_MONTHS_KEPT,
  dailyKept,
  dealAgeBucket,
  execWindow,
  firstDailyDay,
  INITIAL_EXEC_FILTERS,
  MAP_BANDS,
  MCC_LABEL_MAX,
  mapBand,
  mccLabel,
  nextExecFilters,
  projectMonth,
  sharePercent,
  shortNumber,
  wholeMonths,
} from './rules';

describe('number shortening', () => {
  it('uses B, M and K with one decimal from their thresholds, else two decimals', () => {
    expect(shortNumber(999.994)).toBe('999.99');
    expect(shortNumber(1000)).toBe('1.0K');
    expect(shortNumber(12_345)).toBe('12.3K');
    expect(shortNumber(999_999)).toBe('1000.0K');
    expect(shortNumber(1_000_000)).toBe('1.0M');
    expect(shortNumber(2_450_000_000)).toBe('2.5B');
    expect(shortNumber(-1500)).toBe('-1.5K');
    expect(shortNumber(0)).toBe('0.00');
  });
});

describe('chart view and projection', () => {
  it('draws by day above 13 points, by month at 13 or fewer', () => {
    expect(chartView(13)).toBe('monthly');
    expect(chartView(14)).toBe('daily');
    expect(chartView(0)).toBe('monthly');
  });

  it('projects from the 3rd: the month so far over the days elapsed minus 2, times the days of the month', () => {
    expect(projectMonth(100, new Date('2026-11-02T12:00:00Z'))).toBeNull();
    expect(projectMonth(100, new Date('2026-11-03T00:00:00Z'))).toBe(3000);
    expect(projectMonth(280, new Date('2026-01-30T00:00:00Z'))).toBe(310);
    expect(projectMonth(290, new Date('2026-02-12T00:00:00Z'))).toBe(29 * 28);
  });
});

describe('deal age buckets', () => {
  it('puts each edge in the bucket it starts', () => {
    expect([0, 5, 6, 11, 12, 23, 24, 35, 36, 200].map(dealAgeBucket)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    expect(AGE_BUCKETS).toHaveLength(5);
  });

  it('counts whole calendar months as PostgreSQL age() does', () => {
    expect(wholeMonths('2026-01-31', '2026-02-28')).toBe(0);
    expect(wholeMonths('2026-01-15', '2026-02-15')).toBe(1);
    expect(wholeMonths('2025-11-20', '2026-11-19')).toBe(11);
    expect(wholeMonths('2020-03-01', '2026-11-23')).toBe(80);
  });
});

describe('executive filters', () => {
  const year = nextExecFilters(INITIAL_EXEC_FILTERS, { kind: 'year', year: 2024 });

  it('a month needs a year first', () => {
    expect(nextExecFilters(INITIAL_EXEC_FILTERS, { kind: 'month', month: 3 })).toEqual(INITIAL_EXEC_FILTERS);
    expect(nextExecFilters(year, { kind: 'month', month: 3 }).month).toBe(3);
  });

  it('a year replaces the preset and sets the month to All, keeping the MCC', () => {
    const chosen = nextExecFilters(nextExecFilters(year, { kind: 'mcc', mcc: '5812' }), {
      kind: 'month',
      month: 4,
    });
    expect(nextExecFilters(chosen, { kind: 'year', year: 2023 })).toEqual({
      period: null,
      year: 2023,
      month: 0,
      mcc: '5812',
    });
  });

  it('a preset resets year, month and MCC; another ISO resets only the MCC', () => {
    const busy = { period: null, year: 2024, month: 5, mcc: '5812' } as const;
    expect(nextExecFilters(busy, { kind: 'period', period: 'last30Days' })).toEqual({
      period: 'last30Days',
      year: null,
      month: 0,
      mcc: 'All',
    });
    expect(nextExecFilters(busy, { kind: 'iso' })).toEqual({ ...busy, mcc: 'All' });
  });

  it('asks the calls for the window of each choice, never past today', () => {
    const today = new Date('2026-11-23T10:00:00Z');
    expect(execWindow(INITIAL_EXEC_FILTERS, today)).toEqual({
      date: '2025-11-01',
      end: '2026-11-23',
      monthly: true,
      monthTotal: false,
    });
    expect(execWindow({ ...INITIAL_EXEC_FILTERS, period: 'last30Days' }, today)).toEqual({
      date: '2026-10-24',
      end: '2026-11-23',
      monthly: false,
      monthTotal: false,
    });
    expect(execWindow({ period: null, year: 2024, month: 0, mcc: 'All' }, today)).toEqual({
      date: '2024-01-01',
      end: '2024-12-31',
      monthly: true,
      monthTotal: false,
    });
    expect(execWindow({ period: null, year: 2026, month: 2, mcc: 'All' }, today)).toEqual({
      date: '2026-02-01',
      end: '2026-02-28',
      monthly: false,
      monthTotal: false,
    });
    expect(execWindow({ period: null, year: 2026, month: 0, mcc: 'All' }, today).end).toBe('2026-11-23');
    expect(execWindow({ period: null, year: 2026, month: 11, mcc: 'All' }, today).end).toBe('2026-11-23');
  });

  it('keeps daily figures from the 1st of the month twelve months back: the current month and the twelve before', () => {
    expect(DAILY_MONTHS_KEPT).toBe(13);
    expect(firstDailyDay(new Date('2026-11-23T10:00:00Z'))).toBe('2025-11-01');
    expect(firstDailyDay(new Date('2026-11-01T00:00:00Z'))).toBe('2025-11-01');
    expect(firstDailyDay(new Date('2026-10-31T23:59:59Z'))).toBe('2025-10-01');
    expect(firstDailyDay(new Date('2027-01-15T12:00:00Z'))).toBe('2026-01-01');
    const today = new Date('2026-11-23T10:00:00Z');
    expect(dailyKept('2025-11-01', today)).toBe(true);
    expect(dailyKept('2025-10-31', today)).toBe(false);
    expect(dailyKept('2026-11-23', today)).toBe(true);
  });

  it('asks a chosen month older than the daily figures for its monthly total, a kept one for its days', () => {
    const today = new Date('2026-11-23T10:00:00Z');
    const month = (year: number, m: number) =>
      execWindow({ period: null, year, month: m, mcc: 'All' }, today);
    expect(month(2024, 2)).toEqual({
      date: '2024-02-01',
      end: '2024-02-29',
      monthly: true,
      monthTotal: true,
    });
    expect(month(2025, 10)).toEqual({
      date: '2025-10-01',
      end: '2025-10-31',
      monthly: true,
      monthTotal: true,
    });
    expect(month(2025, 11)).toEqual({
      date: '2025-11-01',
      end: '2025-11-30',
      monthly: false,
      monthTotal: false,
    });
    // The presets and whole years never need the rule: the 30 days are kept, years are monthly anyway.
    expect(execWindow({ ...INITIAL_EXEC_FILTERS, period: 'last30Days' }, today).monthTotal).toBe(false);
    expect(execWindow({ period: null, year: 2017, month: 0, mcc: 'All' }, today).monthTotal).toBe(false);
  });
});

describe('map bands, shares and MCC labels', () => {
  it('has the seven bands, each count in exactly one', () => {
    expect(MAP_BANDS).toHaveLength(7);
    expect(
      [0, 9, 10, 24, 25, 49, 50, 99, 100, 499, 500, 999, 1000, 50_000].map((n) => mapBand(n).label),
    ).toEqual([
      'under 10',
      'under 10',
      '10 – 24',
      '10 – 24',
      '25 – 49',
      '25 – 49',
      '50 – 99',
      '50 – 99',
      '100 – 499',
      '100 – 499',
      '500 – 999',
      '500 – 999',
      '1,000 or more',
      '1,000 or more',
    ]);
  });

  it('gives a share as a percent of approved deals, 0 without deals', () => {
    expect(sharePercent(25, 200)).toBe(12.5);
    expect(sharePercent(0, 0)).toBe(0);
  });

  it('cuts an MCC label at 35 characters', () => {
    expect(mccLabel('5812', 'Eating Places')).toEqual({ text: '5812 Eating Places', cut: false });
    const long = mccLabel('5999', 'Miscellaneous and Specialty Retail Stores');
    expect(long.cut).toBe(true);
    expect(long.text).toHaveLength(MCC_LABEL_MAX);
    expect(long.text.endsWith('…')).toBe(true);
  });
});

describe('request bodies', () => {
  it('refuses SQL text', () => {
    const sql = isoAnalyticsBody.safeParse({ sql: 'where 1=1' });
    expect(sql.success).toBe(false);
    expect(sql.error?.issues[0]?.message).toMatch(/SQL text is not accepted/);
    expect(mccBody.safeParse({ groupIDs: ['1'], sql: 'x' }).success).toBe(false);
  });

  it('normalizes group IDs: spaces removed, comma lists split, repeats and empties dropped', () => {
    expect(mccBody.parse({ groupIDs: [' 101, 102 ', '102', ',', '1 03'] }).groupIDs).toEqual([
      '101',
      '102',
      '103',
    ]);
    expect(mccBody.safeParse({ groupIDs: [' , '] }).success).toBe(false);
    expect(mccBody.safeParse({ groupIDs: ["1'; drop"] }).success).toBe(false);
    expect(mccBody.safeParse({ groupIDs: Array.from({ length: 101 }, (_, i) => String(i)) }).success).toBe(
      false,
    );
  });

  it('caps the window at today and refuses a daily window over 31 days or a reversed one', () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(incomeBody.parse({ groupIDs: ['1'], date: '2024-01-01', end: '2100-01-01' }).end).toBe(today);
    expect(incomeBody.parse({ groupIDs: ['1'], date: '2024-01-01' }).mcc).toBe('All');
    const daily = { groupIDs: ['1'], monthly: false, mcc: 'All' };
    // A window of days still kept: the first kept month.
    const first = firstDailyDay(new Date());
    const plus = (days: number) => new Date(Date.parse(first) + days * 86_400_000).toISOString().slice(0, 10);
    expect(transactionsBody.safeParse({ ...daily, date: first, end: plus(31) }).success).toBe(true);
    expect(transactionsBody.safeParse({ ...daily, date: first, end: plus(32) }).success).toBe(false);
    expect(transactionsBody.safeParse({ ...daily, date: plus(1), end: first }).success).toBe(false);
    expect(transactionsBody.safeParse({ ...daily, date: first, mcc: '58' }).success).toBe(false);
  });

  it('refuses days older than the daily figures, naming the first kept day, and takes the month instead', () => {
    const first = firstDailyDay(new Date());
    const before = new Date(Date.parse(first) - 86_400_000).toISOString().slice(0, 10);
    const body = { groupIDs: ['1'], date: `${before.slice(0, 7)}-01`, end: before, mcc: 'All' };
    const refused = transactionsBody.safeParse({ ...body, monthly: false });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.message)).toEqual([
      `Daily figures are kept for the last 13 months, from ${first}: for ${body.date}, ask for monthly figures (monthly: true)`,
    ]);
    expect(transactionsBody.safeParse({ ...body, monthly: true }).success).toBe(true);
  });

  it('defaults the analytics window to every month and refuses a reversed one', () => {
    const b = isoAnalyticsBody.parse({});
    expect(b).toMatchObject({ groups: [], start: '2016-05-01' });
    expect(isoAnalyticsBody.safeParse({ start: '2020-02-01', end: '2020-01-01' }).success).toBe(false);
    expect(isoAnalyticsBody.safeParse({ start: '2016-04-01' }).success).toBe(false);
  });
});

import { MCC_LABEL_MAX, mccLabel } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import { execFigures, mccShares, trendSeries } from './biModel';

describe('MCC labels', () => {
  it('keeps a label of up to 35 characters whole', () => {
    const label = mccLabel('5812', 'Eating Places, Restaurants');
    expect(label).toEqual({ text: '5812 Eating Places, Restaurants', cut: false });
  });

  it('cuts a longer one to 35 characters, ending in an ellipsis', () => {
    const label = mccLabel('5999', 'Miscellaneous and Specialty Retail Stores');
    expect(label.cut).toBe(true);
    expect(label.text).toHaveLength(MCC_LABEL_MAX);
    expect(label.text.endsWith('…')).toBe(true);
    expect(label.text.startsWith('5999 Miscellaneous and Specialty')).toBe(true);
  });
});

describe('MCC shares', () => {
  it('gives each code its share of the merchants, largest first, ties by code', () => {
    const shares = mccShares([
      { mcc_code: '7230', mcc_desc: 'Beauty', mcc_count: 1 },
      { mcc_code: '5812', mcc_desc: 'Restaurants', mcc_count: 2 },
      { mcc_code: '5411', mcc_desc: 'Grocery', mcc_count: 1 },
      { mcc_code: '0000', mcc_desc: 'None', mcc_count: 0 },
    ]);
    expect(shares.map((s) => [s.mcc_code, s.percent])).toEqual([
      ['5812', 50],
      ['5411', 25],
      ['7230', 25],
    ]);
  });
});

describe('the executive cards’ figures', () => {
  const tx = [
    {
      txn_date: '2026-09-01',
      txn_volume: 1000,
      txn_count: 40,
      chbk_volume: 30,
      chbk_count: 1,
      mid_count: 4,
      active_count: 4,
    },
    {
      txn_date: '2026-10-01',
      txn_volume: 3000,
      txn_count: 60,
      chbk_volume: 0,
      chbk_count: 0,
      mid_count: 5,
      active_count: 5,
    },
  ];
  const income = [
    {
      income_date: '2026-09-01',
      gross_income: 200,
      net_income: 150,
      expenses: 30,
      payouts: 20,
      mid_count: 4,
    },
    {
      income_date: '2026-10-01',
      gross_income: 300,
      net_income: 250,
      expenses: 40,
      payouts: 10,
      mid_count: 2,
    },
  ];

  it('adds the period up for the ISO, with the average ticket as volume over transactions', () => {
    expect(execFigures(tx, income).iso).toEqual({
      volume: 4000,
      transactions: 100,
      avgTicket: 40,
      chargebackVolume: 30,
      chargebackCount: 1,
      gross: 500,
      net: 400,
      expenses: 70,
      payouts: 30,
    });
  });

  it('divides by the most merchants active (income: earning) in one month, keeping the average ticket', () => {
    const { perMerchant } = execFigures(tx, income);
    expect(perMerchant).toMatchObject({ volume: 800, transactions: 20, avgTicket: 40, chargebackVolume: 6 });
    expect(perMerchant).toMatchObject({ gross: 125, net: 100, expenses: 17.5, payouts: 7.5 });
  });

  it('gives zeros, not NaN, for a period without activity', () => {
    const { iso, perMerchant } = execFigures([], []);
    expect(iso.avgTicket).toBe(0);
    expect(perMerchant.volume).toBe(0);
  });
});

describe('the Trend', () => {
  const today = new Date('2026-11-10T12:00:00Z');
  const project = (value: number) => value * 2;

  it('projects the last point of a monthly chart when it is the current month', () => {
    const points = [
      { date: '2026-10-01', value: 5 },
      { date: '2026-11-01', value: 3 },
    ];
    expect(trendSeries(points, 'monthly', today, project)).toEqual({ values: [5, 3], trend: 6 });
  });

  it('has none when the chart ends before the current month, or is daily', () => {
    const past = [{ date: '2026-10-01', value: 5 }];
    expect(trendSeries(past, 'monthly', today, project).trend).toBeNull();
    const days = [{ date: '2026-11-09', value: 5 }];
    expect(trendSeries(days, 'daily', today, project).trend).toBeNull();
  });

  it('leaves it to the projection rule to give none (before the 3rd)', () => {
    expect(trendSeries([{ date: '2026-11-01', value: 5 }], 'monthly', today, () => null).trend).toBeNull();
  });
});

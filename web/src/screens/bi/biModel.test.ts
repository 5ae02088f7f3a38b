import { describe, expect, it } from 'vitest';
import { MCC_LABEL_MAX, mccLabel, mccShares } from './biModel';

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

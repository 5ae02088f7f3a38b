import { describe, expect, it } from 'vitest';
import { banksByProfile, partnerDataset, percentOf, profilesByBank } from './details';

const month = {
  Approved: 6,
  HighRisk: 1,
  PayLo: 2,
  Traditional: 3,
  Unassigned: 0,
  CBCAL: 4,
  PPS: 0,
  Esquire: 2,
  Chesapeake: 0,
  FirstData: 0,
};
const split = { CBCAL_PL: 2, CBCAL_TR: 2, Esquire_TR: 1, Esquire_HR: 1 };

describe('card details', () => {
  it('splits the month by platform and profile both ways, with the same totals', () => {
    const banks = banksByProfile(month, split);
    expect(banks.rows[0]).toEqual({
      bank: 'CBCAL',
      total: 4,
      PayLo: 2,
      Traditional: 2,
      'High Risk': 0,
      Unassigned: 0,
    });
    const profiles = profilesByBank(month, split);
    expect(profiles.rows.find((r) => r.profile === 'Traditional')).toMatchObject({
      total: 3,
      CBCAL: 2,
      Esquire: 1,
    });
    expect(banks.rows.reduce((n, r) => n + Number(r.total), 0)).toBe(6);
  });

  it('lists a partner view with the columns of its counts', () => {
    expect(partnerDataset('today', 't', []).columns.map((c) => c.header)).toEqual([
      'Partner',
      'Submitted',
      'Approved',
    ]);
    expect(partnerDataset('closed', 't', []).columns.map((c) => c.header)).toEqual(['Partner', 'Closed']);
  });

  it('gives the share of a goal, or none without a goal', () => {
    expect(percentOf(45, 60)).toBe(75);
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(5, 0)).toBeNull();
  });
});

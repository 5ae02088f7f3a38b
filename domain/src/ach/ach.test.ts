import { describe, expect, it } from 'vitest';
import { achTable, updateAchBody } from '../contracts/ach';
import {
  ACH_RESOLUTIONS,
  achAlert,
  achClassification,
  type ClassifiedRow,
  merchantRejectionBalance,
  rejectionBalance,
} from './classification';
import { ACH_EDITABLE_COLUMNS, parseAchEdit } from './edits';
import { entryDescriptionLabel, feesMonth, returnCodeLabel } from './labels';
import {
  RETURN_RATE_THRESHOLDS,
  returnFamily,
  returnRateSeverity,
  returnRates,
  returnRateWindow,
} from './rates';

const base: ClassifiedRow = {
  AddendaRelated: 'R01',
  TransactionAmount: '125.00',
  MerchantStatus: 'Active',
  rejRes: null,
  writeOff: null,
  sentToColl: null,
};

describe('ACH classification', () => {
  it('NOC: a C code with a zero amount, whatever the resolution', () => {
    expect(achClassification({ ...base, AddendaRelated: 'C01', TransactionAmount: '0.00' })).toBe('NOC');
    expect(
      achClassification({ ...base, AddendaRelated: 'c05', TransactionAmount: 0, rejRes: 'Write Off' }),
    ).toBe('NOC');
  });
  it('a C code with money is not a NOC, nor an R code with 0', () => {
    expect(achClassification({ ...base, AddendaRelated: 'C02', TransactionAmount: '10.00' })).toBe(
      'unresolved',
    );
    expect(achClassification({ ...base, AddendaRelated: 'R01', TransactionAmount: '0' })).toBe('unresolved');
  });
  it('resurrect: an Active merchant written off or sent to collections', () => {
    expect(achClassification({ ...base, rejRes: 'Write Off' })).toBe('resurrect');
    expect(achClassification({ ...base, rejRes: 'Sent to Collections' })).toBe('resurrect');
  });
  it('not resurrect: a closed merchant written off is closed; other write-offs are closed', () => {
    expect(achClassification({ ...base, MerchantStatus: 'Closed', rejRes: 'Write Off' })).toBe(
      'reject closed',
    );
    expect(achClassification({ ...base, MerchantStatus: 'Closed', rejRes: 'Sent to Collections' })).toBe(
      'reject closed',
    );
    expect(achClassification({ ...base, rejRes: 'Write Off - Waived' })).toBe('reject closed');
  });
  it('resurrect: a partial used reserve with a written-off or sent-to-collections sum above 0', () => {
    const partial = { ...base, MerchantStatus: 'Closed', rejRes: 'Used Reserve - PARTIAL' };
    expect(achClassification({ ...partial, writeOff: '0.01' })).toBe('resurrect');
    expect(achClassification({ ...partial, sentToColl: 40 })).toBe('resurrect');
    expect(achClassification({ ...partial, writeOff: '0.00', sentToColl: null })).toBe('reject closed');
    expect(achClassification(partial)).toBe('reject closed');
  });
  it('unresolved: no resolution, or only to be sent to collections', () => {
    expect(achClassification(base)).toBe('unresolved');
    expect(achClassification({ ...base, rejRes: '  ' })).toBe('unresolved');
    expect(achClassification({ ...base, rejRes: 'Will Be Sent to Coll.' })).toBe('unresolved');
  });
  it('reject closed: every other resolution', () => {
    for (const res of ACH_RESOLUTIONS) {
      if (['Write Off', 'Sent to Collections', 'Will Be Sent to Coll.'].includes(res)) continue;
      expect(achClassification({ ...base, rejRes: res })).toBe('reject closed');
    }
  });
});

describe('rejection balance and Alert', () => {
  const row = { TransactionAmount: '100.00', usedRsv: null, reRan: null, sentToColl: null, writeOff: null };
  it('is what was recovered less the return', () => {
    expect(rejectionBalance(row)).toBe(-10000n);
    expect(
      rejectionBalance({ ...row, usedRsv: '60.00', reRan: '15.5', sentToColl: 4, writeOff: '20.50' }),
    ).toBe(0n);
    expect(rejectionBalance({ ...row, usedRsv: '130' })).toBe(3000n);
  });
  it('merchRejBal sums the legal name’s rows exactly', () => {
    expect(merchantRejectionBalance([row, { ...row, TransactionAmount: '0.10', usedRsv: '0.20' }])).toBe(
      -9990n,
    );
    expect(merchantRejectionBalance([])).toBe(0n);
  });
  it('Alert: negative balance, positive reserve, more than one MID — each condition needed', () => {
    expect(achAlert({ merchRejBal: '-0.01', rsvBalance: '500.00', legalNameMids: 2 })).toBe(true);
    expect(achAlert({ merchRejBal: '0.00', rsvBalance: '500.00', legalNameMids: 2 })).toBe(false);
    expect(achAlert({ merchRejBal: '-10', rsvBalance: '0.00', legalNameMids: 2 })).toBe(false);
    expect(achAlert({ merchRejBal: '-10', rsvBalance: null, legalNameMids: 3 })).toBe(false);
    expect(achAlert({ merchRejBal: '-10', rsvBalance: '5', legalNameMids: 1 })).toBe(false);
  });
});

describe('labels', () => {
  it('return codes: the spec’s and the NACHA names', () => {
    expect(returnCodeLabel('R01')).toBe('R01 NSF');
    expect(returnCodeLabel('R16')).toBe('R16 Acct Frozen');
    expect(returnCodeLabel('R29')).toBe('R29 Corporate Customer Advises Not Authorized');
    expect(returnCodeLabel('C03')).toBe('C03 Incorrect Routing # and DFI Acct #');
    expect(returnCodeLabel('R99')).toBe('R99');
    expect(returnCodeLabel(null)).toBe('');
  });
  it('entry descriptions, and the fees month from the entry date less 15 days', () => {
    expect(entryDescriptionLabel('DAILY DISC')).toBe('Daily Disc');
    expect(entryDescriptionLabel('RSV FUND')).toBe('Reserve Funding');
    expect(entryDescriptionLabel('FEES', '2026-11-03')).toBe('October Fees');
    expect(entryDescriptionLabel('FEES', '2026-11-16')).toBe('November Fees');
    expect(entryDescriptionLabel('FEES', '2026-01-15')).toBe('December Fees');
    expect(entryDescriptionLabel('FEES')).toBe('Monthly Fees');
    expect(entryDescriptionLabel('ODD THING')).toBe('ODD THING');
    expect(feesMonth('not a date')).toBe('');
  });
});

describe('return rates', () => {
  it('sorts codes into families; C codes are not returns', () => {
    for (const c of ['R05', 'R07', 'R10', 'R11', 'R29', 'R51']) expect(returnFamily(c)).toBe('unauthorized');
    for (const c of ['R02', 'R03', 'R04']) expect(returnFamily(c)).toBe('administrative');
    expect(returnFamily('R01')).toBe('other');
    expect(returnFamily('C01')).toBeNull();
    expect(returnFamily(null)).toBeNull();
  });
  it('the window is the 60 days ending the day, both included', () => {
    expect(returnRateWindow('2026-03-01')).toEqual({ from: '2026-01-01', to: '2026-03-01' });
  });
  it('each rate against its threshold, strictly above', () => {
    expect(RETURN_RATE_THRESHOLDS).toEqual({ unauthorized: 0.005, administrative: 0.03, overall: 0.15 });
    const at = returnRates({ entries: 1000, returns: 150, unauthorized: 5, administrative: 30 });
    expect(at).toEqual({ unauthorizedRate: 0.005, administrativeRate: 0.03, overallRate: 0.15, over: [] });
    expect(returnRates({ entries: 1000, returns: 20, unauthorized: 6, administrative: 0 }).over).toEqual([
      'unauthorized',
    ]);
    expect(returnRates({ entries: 1000, returns: 31, unauthorized: 0, administrative: 31 }).over).toEqual([
      'administrative',
    ]);
    expect(returnRates({ entries: 100, returns: 16, unauthorized: 1, administrative: 4 }).over).toEqual([
      'unauthorized',
      'administrative',
      'overall',
    ]);
  });
  it('no entries: no rate, never over', () => {
    expect(returnRates({ entries: 0, returns: 3, unauthorized: 1, administrative: 1 })).toEqual({
      unauthorizedRate: null,
      administrativeRate: null,
      overallRate: null,
      over: [],
    });
  });
  it('severity is the worst rate over its threshold', () => {
    expect(
      returnRateSeverity(returnRates({ entries: 100, returns: 30, unauthorized: 1, administrative: 0 })),
    ).toBe(2);
    expect(
      returnRateSeverity(returnRates({ entries: 0, returns: 0, unauthorized: 0, administrative: 0 })),
    ).toBe(0);
  });
});

describe('ACH edits', () => {
  it('text: trimmed, empty clears, too long refused', () => {
    expect(parseAchEdit('comment', '  called the owner ')).toEqual({ ok: true, value: 'called the owner' });
    expect(parseAchEdit('comment', '')).toEqual({ ok: true, value: null });
    expect(parseAchEdit('comment', null)).toEqual({ ok: true, value: null });
    expect(parseAchEdit('comment', 'x'.repeat(1001)).ok).toBe(false);
  });
  it('money: exact amounts as typed by people, refused when not an amount', () => {
    expect(parseAchEdit('usedRsv', '125.5')).toEqual({ ok: true, value: '125.50' });
    expect(parseAchEdit('reRan', '$1,250.00')).toEqual({ ok: true, value: '1250.00' });
    expect(parseAchEdit('writeOff', 12)).toEqual({ ok: true, value: '12.00' });
    expect(parseAchEdit('sentToColl', ' ')).toEqual({ ok: true, value: null });
    for (const bad of ['abc', '1.234', '-5', '1e5', '12,34', '2000000000'])
      expect(parseAchEdit('usedRsv', bad).ok, bad).toBe(false);
  });
  it('rejRes: one of the resolutions', () => {
    expect(parseAchEdit('rejRes', 'Wire Received')).toEqual({ ok: true, value: 'Wire Received' });
    expect(parseAchEdit('rejRes', '')).toEqual({ ok: true, value: null });
    expect(parseAchEdit('rejRes', 'Paid in gold').ok).toBe(false);
  });
  it('dates: real days only, a timestamp cut to its day', () => {
    expect(parseAchEdit('resDate', '2026-02-28')).toEqual({ ok: true, value: '2026-02-28' });
    expect(parseAchEdit('reRanDate', '2026-02-28T10:00:00.000Z')).toEqual({ ok: true, value: '2026-02-28' });
    for (const bad of ['2026-02-30', '02/28/2026', '2026-02-28junk', '1800-01-01'])
      expect(parseAchEdit('usedRsvDate', bad).ok, bad).toBe(false);
  });
  it('the call takes only the editable columns', () => {
    expect(ACH_EDITABLE_COLUMNS).toHaveLength(9);
    const ok = updateAchBody.safeParse({ unique_key: '12', column: 'comment', value: 'x', historic: 1 });
    expect(ok.success && ok.data).toMatchObject({ unique_key: 12, historic: true });
    expect(
      updateAchBody.safeParse({ unique_key: 1, column: 'TransactionAmount', value: '1', historic: 0 })
        .success,
    ).toBe(false);
    expect(
      updateAchBody.safeParse({ unique_key: 1, column: 'workedBy', value: 'me', historic: 0 }).success,
    ).toBe(false);
  });
  it('every editable column is a column of the table', () => {
    const ids = achTable.columns.map((c) => c.id as string);
    for (const c of ACH_EDITABLE_COLUMNS) expect(ids).toContain(c);
  });
});

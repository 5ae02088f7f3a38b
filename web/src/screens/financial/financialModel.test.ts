import type { FinGroupOptions } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import {
  averageHeader,
  averageWindow,
  axisLabel,
  chartWindow,
  EMPTY_SELECTION,
  type FinSelection,
  groupKeys,
  groupOptions,
  parseSelection,
  pruneSelection,
  serializeSelection,
  shareOfAll,
  toggleMonth,
  valueLabel,
  withGroupKeys,
} from './financialModel';

const options: FinGroupOptions = {
  profile: [{ Merchant_Profile: 'PayLo' }, { Merchant_Profile: null }],
  bank: [{ Bank: 'CBCAL' }],
  mcc: [{ MCC: '5812' }, { MCC: '9999' }],
  descript: [{ Code: '5812', Description: 'Eating Places' }],
  partner: [{ Partner_Name: 'Apex Payments' }],
  omonth: [{ open_month: 1 }, { open_month: 12 }],
  oyear: [{ open_year: 2024 }],
};

const chosen: FinSelection = {
  ...EMPTY_SELECTION,
  profile: ['PayLo', null],
  omonth: [12],
  oyear: [2024],
  partner: ['Apex Payments'],
};

describe('stored filter selection', () => {
  it('reads back what it wrote, null values included', () => {
    expect(parseSelection(serializeSelection(chosen))).toEqual(chosen);
  });

  it('fills groups missing from an older stored selection', () => {
    expect(parseSelection('{"bank":["CBCAL"]}')).toEqual({ ...EMPTY_SELECTION, bank: ['CBCAL'] });
  });

  it.each([
    ['nothing stored', null],
    ['not JSON', '{profile:'],
    ['not an object', '"PayLo"'],
    ['an unknown group', '{"sql":"1=1"}'],
    ['a month out of range', '{"omonth":[13]}'],
    ['a month as text', '{"omonth":["12"]}'],
    ['a group that is not a list', '{"bank":"CBCAL"}'],
  ])('discards %s', (_, text) => {
    expect(parseSelection(text)).toBeNull();
  });
});

describe('filter options', () => {
  it('shows null as Not Specified, months by name and MCCs with their description', () => {
    expect(groupOptions('profile', options).map((o) => o.label)).toEqual(['PayLo', 'Not Specified']);
    expect(groupOptions('omonth', options).map((o) => o.label)).toEqual(['January', 'December']);
    expect(groupOptions('mcc', options).map((o) => o.label)).toEqual(['5812 – Eating Places', '9999']);
  });

  it('turns chosen options back into the values the API takes', () => {
    const profile = groupOptions('profile', options).map((o) => o.value);
    expect(withGroupKeys(EMPTY_SELECTION, 'profile', profile).profile).toEqual(['PayLo', null]);
    const months = groupOptions('omonth', options).map((o) => o.value);
    expect(withGroupKeys(EMPTY_SELECTION, 'omonth', months).omonth).toEqual([1, 12]);
    expect(groupKeys(chosen, 'profile')).toEqual(profile);
  });

  it('drops stored values the server no longer lists', () => {
    const stale: FinSelection = { ...chosen, bank: ['Esquire', 'CBCAL'], partner: ['Gone Partner'] };
    expect(pruneSelection(stale, options)).toEqual({ ...chosen, bank: ['CBCAL'], partner: [] });
  });
});

describe('average period', () => {
  const current = '2026-11-01';

  it('averages the 12 whole months before the current one by default', () => {
    expect(averageWindow(null, current)).toEqual({ start: '2025-11-01', end: '2026-10-01' });
    expect(averageHeader(null)).toBe('12 Month Average:');
  });

  it('averages a clicked month alone and names it in the header', () => {
    const month = toggleMonth(null, '2026-08-01');
    expect(month).toBe('2026-08-01');
    expect(averageWindow(month, current)).toEqual({ start: '2026-08-01', end: '2026-08-01' });
    expect(averageHeader(month)).toBe('August 2026 Average:');
  });

  it('goes back to 12 months when the selected bar is clicked again, and moves to another bar', () => {
    expect(toggleMonth('2026-08-01', '2026-08-01')).toBeNull();
    expect(toggleMonth('2026-08-01', '2026-09-01')).toBe('2026-09-01');
  });
});

describe('monthly chart', () => {
  it('opens on 5 months to 1 month before now and never zooms narrower than that', () => {
    const months = Array.from({ length: 25 }, (_, i) => {
      const d = new Date(Date.UTC(2024, 10 + i, 1));
      return d.toISOString().slice(0, 10);
    });
    expect(months.at(-1)).toBe('2026-11-01');
    const window = chartWindow(months, '2026-11-01');
    expect(months[window.startValue]).toBe('2026-06-01');
    expect(months[window.endValue]).toBe('2026-10-01');
    expect(window.minValueSpan).toBe(4);
  });

  it('writes volume in $ millions and transactions and income in thousands', () => {
    // Plain numbers in the axis's unit (its title says "$ millions" or "thousands"), no suffix.
    expect(axisLabel('Volume', 87_401_474.63)).toBe('87.4');
    expect(axisLabel('Volume', 0)).toBe('0');
    expect(axisLabel('Transactions', 1_812_931)).toBe('1,813');
    expect(axisLabel('Income', 597_423.27)).toBe('597');
    expect(axisLabel('Income', 2_500)).toBe('2.5');
  });

  it('shows a bar’s exact value from the API’s decimal or the chart’s number of it', () => {
    expect(valueLabel('Volume', '87401474.63')).toBe('$87,401,474.63');
    expect(valueLabel('Volume', 87_401_474.63)).toBe('$87,401,474.63');
    expect(valueLabel('Income', '-1234.5')).toBe('-$1,234.50');
    // a sum beyond a double's 15–16 digits: the decimal string keeps every cent
    expect(valueLabel('Volume', '123456789012345678.91')).toBe('$123,456,789,012,345,678.91');
    expect(valueLabel('Transactions', 1_812_931)).toBe('1,812,931');
  });

  it('compares the filtered average with all merchants', () => {
    expect(shareOfAll(50, 200)).toBe(25);
    expect(shareOfAll(300, 200)).toBe(150);
    expect(shareOfAll(0, 0)).toBeNull();
  });
});

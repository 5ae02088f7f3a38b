import { rangeLimits, residualTable, selfServeTable } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import {
  cleanFilters,
  defaultColumns,
  defaultTableState,
  describeFilter,
  fromSaved,
  nextSort,
  parseDateRange,
  parseRange,
  readTableState,
  type TableState,
  toSavedFilters,
  withFilter,
  writeTableState,
} from './tableState';

const def = selfServeTable;
const read = (query: string) => readTableState(def, new URLSearchParams(query));

describe('URL table state', () => {
  it('gives the defaults for an empty URL', () => {
    expect(read('')).toEqual(defaultTableState(def));
    expect(read('').columns).not.toContain('groupid');
    expect(read('').sort).toEqual([{ id: 'tx_amt', desc: true }]);
  });

  it('writes nothing for the default state, and keeps other parameters such as the month', () => {
    const params = writeTableState(def, defaultTableState(def), new URLSearchParams('dt=2026-10-01'));
    expect(params.toString()).toBe('dt=2026-10-01');
  });

  it('round-trips every kind of filter, sort, search, page, size and columns', () => {
    const state: TableState = {
      filters: [
        // In the table's column order, which is the order they are read back in.
        { id: 'banknum', kind: 'select', values: ['CBCAL', 'PPS'] },
        { id: 'mid', kind: 'text', value: '4100' },
        { id: 'merchprofile', kind: 'select', values: ['High Risk'] },
        { id: 'opend', kind: 'dateRange', from: '2024-01-01', to: '2024-12-31' },
        { id: 'closed', kind: 'dateRange', from: null, to: '2025-06-30' },
        { id: 'tx_amt', kind: 'range', min: 100, max: null },
        { id: 'tx_cnt', kind: 'range', min: -5, max: 20 },
      ],
      sort: [{ id: 'dba', desc: false }],
      search: 'joe’s pizza & co',
      page: 3,
      pageSize: 25,
      columns: ['groupid', 'mid', 'dba', 'tx_amt'],
    };
    const params = writeTableState(def, state, new URLSearchParams('dt=2026-10-01'));
    expect(params.get('f.tx_amt')).toBe('100..');
    expect(params.getAll('f.banknum')).toEqual(['CBCAL', 'PPS']);
    expect(params.get('dt')).toBe('2026-10-01');
    expect(readTableState(def, new URLSearchParams(params.toString()))).toEqual(state);
  });

  it('tells "sorting turned off" apart from "default sort"', () => {
    const off = writeTableState(def, { ...defaultTableState(def), sort: [] }, new URLSearchParams());
    expect(off.get('sort')).toBe('');
    expect(read(off.toString()).sort).toEqual([]);
    expect(read('sort=-income,mid').sort).toEqual([
      { id: 'income', desc: true },
      { id: 'mid', desc: false },
    ]);
  });

  it('drops what the table does not accept', () => {
    const state = read(
      [
        'f.nope=1',
        'f.mid=',
        'f.tx_amt=1.5..3',
        'f.tx_cnt=9..2',
        'f.opend=2024-02-30..',
        'f.banknum=Bogus',
        'f.dba=Pizza',
        'sort=-nope',
        'page=0',
        'size=7',
        'cols=nope',
      ].join('&'),
    );
    expect(state.filters).toEqual([{ id: 'dba', kind: 'text', value: 'Pizza' }]);
    expect(state.sort).toEqual([]);
    expect(state.page).toBe(1);
    expect(state.pageSize).toBe(10);
    expect(state.columns).toEqual(defaultColumns(def));
  });

  it('keeps columns in the table order whatever order the URL gives', () => {
    expect(read('cols=income,mid,banknum').columns).toEqual(['banknum', 'mid', 'income']);
  });

  it('refuses a filter of the wrong kind for its column', () => {
    expect(cleanFilters(def, [{ id: 'mid', kind: 'range', min: 1, max: 2 }])).toEqual([]);
    expect(cleanFilters(residualTable, [{ id: 'YearMonth', kind: 'text', value: '2026' }])).toEqual([]);
  });
});

describe('header sorting', () => {
  it('goes ascending, descending, then off', () => {
    expect(nextSort([], 'mid')).toEqual([{ id: 'mid', desc: false }]);
    expect(nextSort([{ id: 'mid', desc: false }], 'mid')).toEqual([{ id: 'mid', desc: true }]);
    expect(nextSort([{ id: 'mid', desc: true }], 'mid')).toEqual([]);
    expect(nextSort([{ id: 'tx_amt', desc: true }], 'mid')).toEqual([{ id: 'mid', desc: false }]);
  });
});

describe('filter inputs', () => {
  it('takes whole numbers and open ends in a range', () => {
    expect(parseRange('tx_amt', '100', '')).toEqual({
      ok: true,
      value: { id: 'tx_amt', kind: 'range', min: 100, max: null },
    });
    expect(parseRange('tx_amt', ' -3 ', '3')).toMatchObject({ ok: true, value: { min: -3, max: 3 } });
  });

  it('refuses decimals, words and a minimum above the maximum', () => {
    expect(parseRange('tx_amt', '1.5', '')).toEqual({ ok: false, error: 'Enter whole numbers only' });
    expect(parseRange('tx_amt', '', 'ten')).toEqual({ ok: false, error: 'Enter whole numbers only' });
    expect(parseRange('tx_amt', '10', '9')).toEqual({
      ok: false,
      error: 'The minimum must not exceed the maximum',
    });
    expect(parseRange('tx_amt', '10', '10').ok).toBe(true);
  });

  it('refuses numbers outside a column’s limits: below 0 for counts, beyond what the column holds', () => {
    const count = rangeLimits({ type: 'integer', min: 0 });
    expect(parseRange('approvals_this_year', '-1', '', count)).toEqual({
      ok: false,
      error: 'Enter whole numbers of 0 or more',
    });
    expect(parseRange('approvals_this_year', '', '-5', count).ok).toBe(false);
    expect(parseRange('approvals_this_year', '0', '4', count).ok).toBe(true);
    expect(parseRange('tx_cnt', '', '2147483648', count)).toEqual({
      ok: false,
      error: 'Enter whole numbers up to 2,147,483,647',
    });
    expect(parseRange('tx_cnt', '', '2147483647', count).ok).toBe(true);
    expect(parseRange('tx_amt', '-5000', '', rangeLimits({ type: 'money' })).ok).toBe(true);
  });

  it('checks date ranges', () => {
    expect(parseDateRange('opend', '2024-01-01', '')).toMatchObject({
      ok: true,
      value: { from: '2024-01-01', to: null },
    });
    expect(parseDateRange('opend', '2024-03-01', '2024-02-01')).toEqual({
      ok: false,
      error: 'The start date must not be after the end date',
    });
    expect(parseDateRange('opend', '2024-02-30', '')).toEqual({ ok: false, error: 'Enter real dates' });
  });

  it('removes a filter that narrows nothing', () => {
    const filters = withFilter([], 'mid', { id: 'mid', kind: 'text', value: '41' });
    expect(filters).toHaveLength(1);
    expect(withFilter(filters, 'mid', { id: 'mid', kind: 'text', value: '  ' })).toEqual([]);
    expect(withFilter(filters, 'mid', null)).toEqual([]);
  });

  it('describes filters in words', () => {
    const volume = { label: 'Volume', type: 'money' as const };
    expect(describeFilter(volume, { id: 'tx_amt', kind: 'range', min: 1000, max: 25000 })).toBe(
      'Volume 1,000 – 25,000',
    );
    expect(describeFilter(volume, { id: 'tx_amt', kind: 'range', min: null, max: 5 })).toBe('Volume ≤ 5');
    expect(describeFilter({ label: 'MID', type: 'text' }, { id: 'mid', kind: 'text', value: '41' })).toBe(
      'MID starts with “41”',
    );
    const action = { label: 'Action', type: 'text' as const, optionLabels: { signout: 'Signed out' } };
    expect(describeFilter(action, { id: 'action', kind: 'select', values: ['signout', 'other'] })).toBe(
      'Action: Signed out, other',
    );
  });
});

describe('saved reports', () => {
  it('saves the view and loads it back on page 1, cleaned against the table', () => {
    const state: TableState = {
      ...defaultTableState(def),
      filters: [{ id: 'mid', kind: 'text', value: '41' }],
      search: 'pizza',
      page: 4,
      pageSize: 25,
      columns: ['mid', 'dba'],
    };
    const saved = toSavedFilters(state);
    expect(fromSaved(def, saved, state.columns)).toEqual({ ...state, page: 1 });
    expect(fromSaved(def, { ...saved, pageSize: 33 }, ['gone', 'mid']).pageSize).toBe(10);
    expect(fromSaved(def, saved, ['gone', 'mid']).columns).toEqual(['mid']);
  });
});

describe('two tables on one URL', () => {
  const other = residualTable;
  const otherState = (): TableState => ({
    ...defaultTableState(other),
    filters: [{ id: 'MID', kind: 'text', value: '7410' }],
    search: 'acme',
    page: 3,
  });

  it('keeps a namespaced table under its own prefixed names and the plain table under the plain ones', () => {
    const plain: TableState = {
      ...defaultTableState(def),
      filters: [{ id: 'mid', kind: 'text', value: '4100' }],
      page: 2,
    };
    let params = writeTableState(def, plain, new URLSearchParams('dt=2026-10-01'));
    params = writeTableState(other, otherState(), params, 'ach');
    expect(params.get('f.mid')).toBe('4100');
    expect(params.get('page')).toBe('2');
    expect(params.get('ach.f.MID')).toBe('7410');
    expect(params.get('ach.q')).toBe('acme');
    expect(params.get('ach.page')).toBe('3');
    expect(params.get('q')).toBeNull();
    expect(params.get('dt')).toBe('2026-10-01');
    expect(readTableState(def, params)).toEqual(plain);
    expect(readTableState(other, params, 'ach')).toEqual(otherState());
  });

  it('rewriting one table leaves the other table’s parameters alone', () => {
    const start = writeTableState(other, otherState(), new URLSearchParams('f.mid=4100&page=2'), 'ach');
    const cleared = writeTableState(def, defaultTableState(def), start);
    expect(cleared.get('f.mid')).toBeNull();
    expect(cleared.get('page')).toBeNull();
    expect(readTableState(other, cleared, 'ach')).toEqual(otherState());
    const otherCleared = writeTableState(other, defaultTableState(other), start, 'ach');
    expect(otherCleared.toString()).toBe('f.mid=4100&page=2');
  });
});

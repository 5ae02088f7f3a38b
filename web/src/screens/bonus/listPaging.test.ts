import { describe, expect, it } from 'vitest';
import { BONUS_PAGE_ALL, lastPage, pageOf, pageSizeLabel, searchRows } from './listPaging';

const rows = Array.from({ length: 37 }, (_, i) => i + 1);

describe('bonus list paging', () => {
  it('cuts pages of the chosen size and shows every row for All', () => {
    expect(pageOf(rows, 1, 15)).toEqual(rows.slice(0, 15));
    expect(pageOf(rows, 3, 15)).toEqual([31, 32, 33, 34, 35, 36, 37]);
    expect(pageOf(rows, 1, BONUS_PAGE_ALL)).toHaveLength(37);
    expect(pageSizeLabel(BONUS_PAGE_ALL)).toBe('All');
    expect(pageSizeLabel(25)).toBe('25');
  });

  it('counts the last page, never below one', () => {
    expect(lastPage(37, 15)).toBe(3);
    expect(lastPage(45, 15)).toBe(3);
    expect(lastPage(0, 15)).toBe(1);
    expect(lastPage(37, BONUS_PAGE_ALL)).toBe(1);
  });

  it('searches by case-insensitive prefix of any field or of a word in it', () => {
    const list = [
      { mid: '7410001', dba: 'Blue Cafe' },
      { mid: '8410002', dba: 'Bluebird Diner' },
      { mid: '9410003', dba: null },
    ];
    const fields = (r: (typeof list)[number]) => [r.mid, r.dba];
    expect(searchRows(list, ' BLUE ', fields)).toEqual([list[0], list[1]]);
    expect(searchRows(list, 'cafe', fields)).toEqual([list[0]]);
    expect(searchRows(list, 'afe', fields)).toEqual([]);
    expect(searchRows(list, '84', fields)).toEqual([list[1]]);
    expect(searchRows(list, '', fields)).toEqual(list);
  });
});

import { ACH_STALE_EDIT_MESSAGE, ACH_UPDATE_FAILED_MESSAGE } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../app/api';
import { achRowId, commitOf, inputValue, saveProblem } from './achEdit';

describe('achRowId', () => {
  it('keeps a live and a historic row with the same number apart', () => {
    expect(achRowId({ main_unique_key: 17, historic: 0 })).toBe('0-17');
    expect(achRowId({ main_unique_key: 17, historic: 1 })).toBe('1-17');
    expect(achRowId({ main_unique_key: 17, historic: '1' })).toBe('1-17');
  });
});

describe('inputValue', () => {
  it('shows nothing for an empty cell and a date as its day', () => {
    expect(inputValue('comment', null)).toBe('');
    expect(inputValue('usedRsv', '125.50')).toBe('125.50');
    expect(inputValue('resDate', '2026-10-03T00:00:00.000Z')).toBe('2026-10-03');
  });
});

describe('commitOf: what leaving a cell sends', () => {
  it('sends nothing when the text did not change, spaces aside', () => {
    expect(commitOf('comment', 'called the bank', ' called the bank ')).toEqual({ kind: 'unchanged' });
  });

  it('sends a changed comment as typed, trimmed', () => {
    expect(commitOf('comment', '', ' left a voicemail ')).toEqual({
      kind: 'send',
      value: 'left a voicemail',
    });
  });

  it('sends null when a cell is emptied', () => {
    expect(commitOf('writeOff', '40.00', '')).toEqual({ kind: 'send', value: null });
    expect(commitOf('rejRes', 'Write Off', '')).toEqual({ kind: 'send', value: null });
  });

  it('treats the same amount written differently as unchanged', () => {
    expect(commitOf('usedRsv', '12.50', '12.5')).toEqual({ kind: 'unchanged' });
    expect(commitOf('usedRsv', '1250.00', '$1,250')).toEqual({ kind: 'unchanged' });
  });

  it('sends an amount as the exact decimal the server stores', () => {
    expect(commitOf('reRan', '', '$1,250.5')).toEqual({ kind: 'send', value: '1250.50' });
  });

  it('refuses text that is not an amount, more than two decimals and negative amounts, sending nothing', () => {
    for (const typed of ['abc', '12.345', '-5', '1e3']) {
      const commit = commitOf('sentToColl', '10.00', typed);
      expect(commit.kind, typed).toBe('invalid');
    }
    expect(commitOf('sentToColl', '', 'abc')).toMatchObject({ message: expect.stringContaining('amount') });
  });

  it('refuses a date that does not exist and accepts a real one', () => {
    expect(commitOf('resDate', '', '2026-02-30').kind).toBe('invalid');
    expect(commitOf('reRanDate', '', '2026-11-02')).toEqual({ kind: 'send', value: '2026-11-02' });
  });

  it('refuses a resolution outside the list', () => {
    expect(commitOf('rejRes', '', 'Paid in gold').kind).toBe('invalid');
    expect(commitOf('rejRes', '', 'Used Reserve - PARTIAL')).toEqual({
      kind: 'send',
      value: 'Used Reserve - PARTIAL',
    });
  });

  it('lets an unreadable stored value stand when it is left untouched', () => {
    expect(commitOf('usedRsv', 'n/a', 'n/a')).toEqual({ kind: 'unchanged' });
  });
});

describe('saveProblem', () => {
  it('reads a 409 as a stale edit, with the server’s explanation', () => {
    const problem = saveProblem(new ApiError(409, 'Someone else changed this row', true));
    expect(problem).toEqual({ stale: true, title: 'Someone else changed this row', detail: null });
    expect(saveProblem(new ApiError(409, 'HTTP 409', false)).title).toBe(ACH_STALE_EDIT_MESSAGE);
  });

  it('headlines any other failure with the spec’s message and keeps the reason', () => {
    expect(saveProblem(new ApiError(400, 'usedRsv is an amount of 0 or more', true))).toEqual({
      stale: false,
      title: ACH_UPDATE_FAILED_MESSAGE,
      detail: 'usedRsv is an amount of 0 or more',
    });
    expect(saveProblem(new TypeError('network'))).toEqual({
      stale: false,
      title: 'Cannot update the database! try again',
      detail: null,
    });
  });
});

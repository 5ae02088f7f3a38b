import type { PartnerDirectoryRow } from '@paydesk/domain/contracts/partners';
import { describe, expect, it } from 'vitest';
import {
  day10,
  exportRow,
  groupByAccount,
  pageAccounts,
  parseRevShare,
  percentShown,
  percentText,
  phaseOfPoll,
  statusBadge,
} from './directory';

function row(
  accountid: string,
  groupid: string | null,
  effectivedate: string | null = null,
): PartnerDirectoryRow {
  return {
    accountid,
    accountname: `Account ${accountid}`,
    status: 'Active',
    rm: null,
    recruiter: null,
    isc: 0.5,
    liability: null,
    datesigned: null,
    fullname: null,
    processingemail: null,
    phone: null,
    billingstreet: null,
    billingcity: null,
    billingstate: null,
    billingzip: null,
    operationemail: null,
    groupname: groupid ? `Group ${groupid}` : null,
    groupid,
    bank: groupid ? 'CBCAL' : null,
    profile: null,
    processor: groupid ? 'TSYS' : null,
    effectivedate,
  };
}

/** Accounts with these numbers of groups (0: an account without groups), ids a0, a1, … */
function accountsOf(sizes: number[]): PartnerDirectoryRow[] {
  return sizes.flatMap((size, a) =>
    size === 0 ? [row(`a${a}`, null)] : Array.from({ length: size }, (_, g) => row(`a${a}`, `${a}-${g}`)),
  );
}

describe('the search reading’s accounts', () => {
  it('groups the rows by account in first-seen order, even when an account’s rows are not adjacent', () => {
    const accounts = groupByAccount([row('b', '1'), row('a', '2'), row('b', '3'), row('c', null)]);
    expect(accounts.map((a) => [a.account.accountid, a.groups.map((g) => g.groupid), a.rows])).toEqual([
      ['b', ['1', '3'], 2],
      ['a', ['2'], 1],
      ['c', [], 1],
    ]);
    expect(accounts[0]?.account).not.toHaveProperty('groupid');
  });

  it('pages whole accounts: no page over the limit, no account split, every row once, in order', () => {
    const sizes = [5, 30, 20, 0, 7, 59, 60, 3, 1, 12, 48, 2];
    const accounts = groupByAccount(accountsOf(sizes));
    const pages = pageAccounts(accounts, 60);
    for (const page of pages) expect(page.reduce((n, a) => n + a.rows, 0)).toBeLessThanOrEqual(60);
    expect(pages.flat().map((a) => a.account.accountid)).toEqual(sizes.map((_, i) => `a${i}`));
    // Greedy: a page ends only because the next account does not fit.
    for (let i = 0; i < pages.length - 1; i++) {
      const used = (pages[i] ?? []).reduce((n, a) => n + a.rows, 0);
      expect(used + (pages[i + 1]?.[0]?.rows ?? 0)).toBeGreaterThan(60);
    }
    expect(pages.map((p) => p.map((a) => a.rows))).toEqual([
      [5, 30, 20, 1],
      [7],
      [59],
      [60],
      [3, 1, 12],
      [48, 2],
    ]);
  });

  it('gives an account larger than a page a page of its own', () => {
    const pages = pageAccounts(groupByAccount(accountsOf([2, 75, 1])), 60);
    expect(pages.map((p) => p.map((a) => a.rows))).toEqual([[2], [75], [1]]);
  });

  it('has no pages for no rows', () => {
    expect(pageAccounts([], 60)).toEqual([]);
  });

  it('exports one row per account with its group IDs joined and the earliest effective date', () => {
    const [account] = groupByAccount([
      row('a', '300', '2024-05-01T00:00:00Z'),
      row('a', '100', '2021-02-03'),
      row('a', '200', null),
    ]);
    expect(account && exportRow(account)).toMatchObject({
      accountid: 'a',
      groupids: '300,100,200',
      effectivedate: '2021-02-03',
    });
    const [lone] = groupByAccount([row('b', null)]);
    expect(lone && exportRow(lone)).toMatchObject({ groupids: '', effectivedate: null });
  });
});

describe('status, dates and rev shares as shown', () => {
  it('colours Active green, Inactive yellow and anything else as Dead in red', () => {
    expect(statusBadge('Active')).toEqual({ label: 'Active', color: 'green' });
    expect(statusBadge('Inactive')).toEqual({ label: 'Inactive', color: 'yellow' });
    expect(statusBadge('Terminated')).toEqual({ label: 'Dead', color: 'red' });
    expect(statusBadge('active')).toEqual({ label: 'Dead', color: 'red' });
    expect(statusBadge(null)).toEqual({ label: 'Dead', color: 'red' });
  });

  it('cuts dates to 10 characters', () => {
    expect(day10('2024-03-05T17:00:00.000Z')).toBe('2024-03-05');
    expect(day10(null)).toBe('—');
  });

  it('shows a fraction ×100 without float noise', () => {
    expect(percentText(0.8)).toBe('80');
    expect(percentText(0.825)).toBe('82.5');
    expect(percentText(0.0007)).toBe('0.07');
    expect(percentText(0.57)).toBe('57');
    expect(percentShown(0.1234)).toBe('12.34%');
    expect(percentShown(null)).toBe('—');
  });

  it('turns a typed percentage into the fraction stored, or says what is wrong', () => {
    expect(parseRevShare('82.5')).toEqual({ ok: true, percent: 82.5, fraction: 0.825 });
    expect(parseRevShare(' 0 ')).toEqual({ ok: true, percent: 0, fraction: 0 });
    expect(parseRevShare('100')).toEqual({ ok: true, percent: 100, fraction: 1 });
    expect(parseRevShare('57.01')).toEqual({ ok: true, percent: 57.01, fraction: 0.5701 });
    expect(parseRevShare('100.01')).toEqual({
      ok: false,
      message: expect.stringMatching(/between 0 and 100/),
    });
    expect(parseRevShare('-1')).toEqual({ ok: false, message: expect.stringMatching(/between 0 and 100/) });
    expect(parseRevShare('12.345')).toEqual({ ok: false, message: expect.stringMatching(/two decimals/) });
    expect(parseRevShare('')).toEqual({ ok: false, message: 'Rev share must be a number' });
    expect(parseRevShare('eighty')).toEqual({ ok: false, message: 'Rev share must be a number' });
  });

  it('adopts the polled runtime status, and treats an empty answer as stopped', () => {
    expect(phaseOfPoll([{ runtime_status: 'started' }])).toBe('started');
    expect(phaseOfPoll([{ runtime_status: 'finished' }])).toBe('finished');
    expect(phaseOfPoll([])).toBe('stopped');
    expect(phaseOfPoll(undefined)).toBe('stopped');
  });
});

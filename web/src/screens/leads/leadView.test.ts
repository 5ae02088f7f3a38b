import type { LeadRecord } from '@paydesk/domain/leads/contracts';
import { describe, expect, it } from 'vitest';
import {
  applicantName,
  approvalStatus,
  formatRuntime,
  groupByOwner,
  isPdfName,
  keepPolling,
  NO_OWNER,
  openLeadsOf,
  searchLeads,
  tabAfterClosing,
} from './leadView';

const lead = (
  Id: string,
  Name: string,
  Company: string | null,
  owner: string | null,
  day: string,
): LeadRecord => ({
  Id,
  Name,
  Company,
  Status: 'Open',
  CreatedDate: `2026-11-${day}T10:00:00.000Z`,
  Real_Owner_del__c: owner,
});

const LEADS = [
  lead('A1', 'Ann Avery', 'Avery Bakery', 'Zoe Zimmer', '01'),
  lead('B2', 'Bob Brown', 'Brown Auto', 'Adam Ames', '03'),
  lead('C3', 'Cy Cole', null, null, '02'),
  lead('D4', 'Dee Dunn', 'Bakers Dozen', 'Adam Ames', '05'),
];

describe('the lead picker', () => {
  it('groups by owner, owners alphabetically with the owner-less last, newest lead first', () => {
    const groups = groupByOwner(LEADS);
    expect(groups.map((g) => g.owner)).toEqual(['Adam Ames', 'Zoe Zimmer', NO_OWNER]);
    expect(groups[0]?.leads.map((l) => l.Id)).toEqual(['D4', 'B2']);
  });

  it('finds by name, company or owner, case-insensitively', () => {
    const groups = groupByOwner(LEADS);
    const ids = (search: string) => searchLeads(groups, search, 50).flatMap((g) => g.leads.map((l) => l.Id));
    expect(ids('bak')).toEqual(['D4', 'A1']);
    expect(ids('COLE')).toEqual(['C3']);
    expect(ids('adam')).toEqual(['D4', 'B2']);
    expect(ids('')).toEqual(['D4', 'B2', 'A1', 'C3']);
    expect(ids('nobody')).toEqual([]);
  });

  it('shows at most `limit` leads across the groups', () => {
    const found = searchLeads(groupByOwner(LEADS), '', 3);
    expect(found.flatMap((g) => g.leads)).toHaveLength(3);
    expect(found.map((g) => g.owner)).toEqual(['Adam Ames', 'Zoe Zimmer']);
  });
});

describe('the lead tabs in the address', () => {
  it('keeps well-formed ids once each', () => {
    expect(openLeadsOf('A1,B2,A1,<x>,')).toEqual(['A1', 'B2']);
    expect(openLeadsOf(null)).toEqual([]);
  });

  it('shows the tab left of a closed one, else the right one, else the Leads tab', () => {
    expect(tabAfterClosing(['A', 'B', 'C'], 'B', 'B')).toBe('A');
    expect(tabAfterClosing(['A', 'B'], 'A', 'A')).toBe('B');
    expect(tabAfterClosing(['A'], 'A', 'A')).toBe('leads');
    expect(tabAfterClosing(['A', 'B'], 'A', 'B')).toBe('B');
  });
});

describe('approvals', () => {
  it('reads approved as the spec says: null pending, 1 approved, 0 rejected', () => {
    expect(approvalStatus({ approved: null })).toBe('Pending');
    expect(approvalStatus({ approved: 1 })).toBe('Approved');
    expect(approvalStatus({ approved: 0 })).toBe('Rejected');
  });

  it('names the applicant, or the lead when the form had no name', () => {
    expect(applicantName({ first_name: 'Ann', last_name: 'Avery', lead_id: 'A1' })).toBe('Ann Avery');
    expect(applicantName({ first_name: null, last_name: null, lead_id: 'A1' })).toBe('A1');
  });
});

describe('checks', () => {
  const checks = (...statuses: (string | null)[]) =>
    statuses.map((runtime_status, i) => ({
      check_type: (['DataX', 'Match', 'TinCheck', 'Giact', 'LexisNexis'] as const)[i] ?? 'DataX',
      runtime_status: runtime_status as 'initiated' | 'started' | 'finished' | 'stopped' | null,
    }));

  it('polls while the server says a check runs', () => {
    expect(keepPolling({ polling: true, checks: checks('started') }, null, 0)).toBe(true);
  });

  it('stops on finished, stopped and initiated combinations when nothing was just queued', () => {
    const answer = { polling: false, checks: checks('finished', 'stopped', 'initiated', 'finished') };
    expect(keepPolling(answer, null, 1000)).toBe(false);
  });

  it('waits for queued checks to be picked up, but not forever', () => {
    const answer = { polling: false, checks: checks('initiated', 'initiated', 'finished', 'finished') };
    expect(keepPolling(answer, 5000, 1000)).toBe(true);
    expect(keepPolling(answer, 5000, 6000)).toBe(false);
    const done = { polling: false, checks: checks('finished', 'finished', 'finished', 'finished') };
    expect(keepPolling(done, 5000, 1000)).toBe(false);
    expect(keepPolling(undefined, 5000, 1000)).toBe(false);
  });

  it('shows runtimes in seconds, then minutes', () => {
    expect(formatRuntime(null)).toBe('—');
    expect(formatRuntime(4.25)).toBe('4.3 s');
    expect(formatRuntime(185)).toBe('3 min 05 s');
  });

  it('sends only a file named .pdf (the server checks the content)', () => {
    expect(isPdfName('report.PDF')).toBe(true);
    expect(isPdfName('report.pdf.exe')).toBe(false);
    expect(isPdfName('report.txt')).toBe(false);
  });
});

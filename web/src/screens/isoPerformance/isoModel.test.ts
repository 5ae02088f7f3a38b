import { describe, expect, it } from 'vitest';
import { byStatus, statusBody, statusFileName } from './isoModel';

describe('ISO partner status ranges', () => {
  it('ends the 90 days today in the current month', () => {
    expect(statusBody('2026-11-01', '2026-11-21')).toEqual({
      this_month_start: '2026-11-01',
      this_month_end: '2026-11-30',
      last_90D_start: '2026-08-23',
      last_90D_end: '2026-11-21',
    });
  });

  it('ends the 90 days at the end of a past month', () => {
    expect(statusBody('2024-02-01', '2026-11-21')).toEqual({
      this_month_start: '2024-02-01',
      this_month_end: '2024-02-29',
      last_90D_start: '2023-12-01',
      last_90D_end: '2024-02-29',
    });
  });
});

describe('byStatus', () => {
  it('groups partners by status, every status present', () => {
    const groups = byStatus([
      {
        iso_name: 'A',
        iso_status: 'Active',
        latest_app_date: '2026-11-02',
        latest_approval_date: '2026-11-01',
      },
      { iso_name: 'B', iso_status: 'Dead', latest_app_date: null, latest_approval_date: null },
      {
        iso_name: 'C',
        iso_status: 'Active',
        latest_app_date: '2026-11-03',
        latest_approval_date: '2026-11-03',
      },
    ]);
    expect(groups.Active.map((r) => r.iso_name)).toEqual(['A', 'C']);
    expect(groups.InActive).toEqual([]);
    expect(groups.Dead).toHaveLength(1);
  });

  it('names a status export by status and month', () => {
    expect(statusFileName('InActive', '2026-11-01')).toBe('ISO Partners Inactive 2026-11.xlsx');
  });
});

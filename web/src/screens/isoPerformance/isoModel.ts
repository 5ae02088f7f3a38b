import {
  ISO_STATUSES,
  type IsoPartnerStatusRow,
  type IsoPartnersStatusBody,
  type IsoStatus,
  isoPartnersTable,
  lastDayOfMonth,
  type TableDef,
} from '@paydesk/domain';

const DAY = 86_400_000;
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** The status ranges of a month: the month itself, and the 90 days up to its end or today, whichever is earlier. */
export function statusBody(month: string, today: string): IsoPartnersStatusBody {
  const monthEnd = lastDayOfMonth(month);
  const end = today < monthEnd ? today : monthEnd;
  return {
    this_month_start: month,
    this_month_end: monthEnd,
    last_90D_start: shift(end, -90),
    last_90D_end: end,
  };
}

export const STATUS_LABELS: Record<IsoStatus, string> = {
  Active: 'Active',
  InActive: 'Inactive',
  Dead: 'Dead',
};

export const STATUS_RULES: Record<IsoStatus, string> = {
  Active: 'At least one approval this month',
  InActive: 'None this month, at least one in the last 90 days',
  Dead: 'No approval in the last 90 days',
};

export function byStatus(rows: readonly IsoPartnerStatusRow[]): Record<IsoStatus, IsoPartnerStatusRow[]> {
  const out = Object.fromEntries(ISO_STATUSES.map((s) => [s, [] as IsoPartnerStatusRow[]])) as Record<
    IsoStatus,
    IsoPartnerStatusRow[]
  >;
  for (const row of rows) out[row.iso_status]?.push(row);
  return out;
}

/** 'ISO Partners Active 2026-11.xlsx' */
export function statusFileName(status: IsoStatus, month: string): string {
  return `ISO Partners ${STATUS_LABELS[status]} ${month.slice(0, 7)}.xlsx`;
}

/**
 * The table as shown: the approval periods under short headers (the screen's description names them as
 * approvals) and the signing date under Columns, so the rest fits a laptop screen without sideways
 * scrolling. Ids, filters and sorting are the server's.
 */
const SHORT_LABELS: Record<string, string> = {
  approvals_this_month: 'This month',
  approvals_last_month: 'Last month',
  approvals_this_year: 'This year',
  approvals_last_year: 'Last year',
};

export const ISO_TABLE_ON_SCREEN: TableDef = {
  ...isoPartnersTable,
  columns: isoPartnersTable.columns.map((c) => ({
    ...c,
    label: SHORT_LABELS[c.id] ?? c.label,
    hidden: c.id === 'date_signed',
  })),
};

import { BANKS, type BankProfileCounts, type MonthCounts, type PartnerRow, PROFILES } from '@paydesk/domain';
import type { Dataset } from '../../components/DetailModal';
import type { PartnerView, ProfileSplit } from './salesModel';

/** The lists behind each dashboard card, as the detail modal shows them and the workbook holds them. */

const PROFILE_CODE: Record<string, string> = {
  PayLo: 'PL',
  Traditional: 'TR',
  'High Risk': 'HR',
  Unassigned: 'UN',
};
const PROFILE_FIELD: Record<string, keyof MonthCounts> = {
  PayLo: 'PayLo',
  Traditional: 'Traditional',
  'High Risk': 'HighRisk',
  Unassigned: 'Unassigned',
};

type ApprovedMonth = Omit<MonthCounts, 'Submitted' | 'Closed'>;

export const approvalColumns = [
  { key: 'id', header: 'Application' },
  { key: 'MID', header: 'MID' },
  { key: 'DBA', header: 'DBA' },
  { key: 'SponsorBank', header: 'Sponsor bank' },
  { key: 'profile', header: 'Profile' },
  { key: 'ISO', header: 'ISO' },
  { key: 'approved', header: 'Approved' },
] as const;

export const merchantColumns = [
  { key: 'id', header: 'id' },
  { key: 'MID', header: 'MID' },
  { key: 'DBA', header: 'DBA' },
  { key: 'SponsorBank', header: 'SponsorBank' },
  { key: 'profile', header: 'profile' },
] as const;

export function profilesByDay(submitted: ProfileSplit, approved: ProfileSplit): Dataset {
  const columns = [
    { key: 'profile', header: 'Profile' },
    { key: 'submitted', header: 'Submitted', numeric: true },
    { key: 'approved', header: 'Approved', numeric: true },
  ];
  const rows = [
    ...PROFILES.map((p) => ({ profile: p, submitted: submitted[p], approved: approved[p] })),
    { profile: 'Total', submitted: submitted.total, approved: approved.total },
  ];
  return { title: 'By profile', columns, rows };
}

/** Approvals of the month by bank, split by profile (the second record of /api/approvedMTD). */
export function banksByProfile(month: ApprovedMonth, byBankProfile: BankProfileCounts): Dataset {
  return {
    title: 'Approvals by platform and profile',
    columns: [
      { key: 'bank', header: 'Platform' },
      { key: 'total', header: 'Approved', numeric: true },
      ...PROFILES.map((p) => ({ key: p, header: p, numeric: true })),
    ],
    rows: BANKS.map((bank) => ({
      bank,
      total: month[bank],
      ...Object.fromEntries(PROFILES.map((p) => [p, byBankProfile[`${bank}_${PROFILE_CODE[p]}`] ?? 0])),
    })),
  };
}

export function profilesByBank(month: ApprovedMonth, byBankProfile: BankProfileCounts): Dataset {
  return {
    title: 'Approvals by profile and platform',
    columns: [
      { key: 'profile', header: 'Profile' },
      { key: 'total', header: 'Approved', numeric: true },
      ...BANKS.map((b) => ({ key: b, header: b, numeric: true })),
    ],
    rows: PROFILES.map((profile) => ({
      profile,
      total: month[PROFILE_FIELD[profile] as keyof ApprovedMonth],
      ...Object.fromEntries(BANKS.map((b) => [b, byBankProfile[`${b}_${PROFILE_CODE[profile]}`] ?? 0])),
    })),
  };
}

export function partnerDataset(view: PartnerView, title: string, rows: readonly PartnerRow[]): Dataset {
  const columns =
    view === 'today'
      ? [
          { key: 'ISO', header: 'Partner' },
          { key: 'subCount', header: 'Submitted', numeric: true },
          { key: 'appCount', header: 'Approved', numeric: true },
        ]
      : view === 'closed'
        ? [
            { key: 'ISO', header: 'Partner' },
            { key: 'closureCount', header: 'Closed', numeric: true },
          ]
        : [
            { key: 'ISO', header: 'Partner' },
            { key: 'appCount', header: 'Approved', numeric: true },
          ];
  return { title, columns, rows: rows.map((r) => ({ ...r })) };
}

/** The percentage of a goal reached, one decimal; null without a goal. */
export function percentOf(value: number, goal: number): number | null {
  return goal > 0 ? Math.round((value / goal) * 1000) / 10 : null;
}

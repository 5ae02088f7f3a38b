import { z } from 'zod';
import { isoDate, type TableDef } from '../table';

/** Spec document 1 §2 Sales dashboard, §3, §7 Sales calls; document 2 §2.2 leaderboard; document 3 §2.6 ISO partners. */

export const SALES_FIRST_MONTH = '2019-01-01';
export const LIVE_REFRESH_MS = 60_000;
export const PENDING_DAYS = 45;

export const salesPaths = {
  // no body
  approvedToday: '/api/approvedToday',
  submittedToday: '/api/submittedToday',
  approvedTodayInHouse: '/api/approvedTodayInHouse',
  submittedTodayInHouse: '/api/submittedTodayInHouse',
  approvedTodayByProfile: '/api/approvedTodayByProfile',
  submittedTodayByProfile: '/api/submittedTodayByProfile',
  approvedYest: '/api/approvedYest',
  submittedYest: '/api/submittedYest',
  approvedYestByProfile: '/api/approvedYestByProfile',
  submittedYestByProfile: '/api/submittedYestByProfile',
  submittedApprovedTodayPartner: '/api/submittedApprovedTodayPartner',
  submittedApprovedTodayInHousePartner: '/api/submittedApprovedTodayInHousePartner',
  pending45days: '/api/pending45days',
  // body cntr
  approvedMTD: '/api/approvedMTD',
  submittedMTD: '/api/submittedMTD',
  closedMTD: '/api/closedMTD',
  approvedMTDInHouse: '/api/approvedMTDInHouse',
  submittedMTDInHouse: '/api/submittedMTDInHouse',
  approvedMTDPartner: '/api/approvedMTDPartner',
  approvedMTDInHousePartner: '/api/approvedMTDInHousePartner',
  closedMTDPartner: '/api/ClosedMTDPartner',
  // body dt
  day: '/api/day',
  month: '/api/month',
  year: '/api/year',
  approvedYTDDetails: '/api/approvedYTD_Details',
  salesYTDgoals: '/api/salesYTDgoals',
  holiday: '/api/holiday',
  // GET
  pend: '/api/pend',
  // added by PayDesk: the merchants behind a partner row
  partnerMerchants: '/api/partnerMerchants',
  leaderboardUW: '/api/leaderboardUW',
  leaderboardRM: '/api/leaderboardRM',
  isoPartners: '/api/iso/GetPartners',
  isoPartnersStatus: '/api/iso/GetPartnersStatus',
  isoPartnersQuery: '/api/iso/partners/query',
  isoPartnersExport: '/api/iso/partners/export',
} as const;

/** cntr: the month offset from the current month, 0 for this month, -1 for last month, back to January 2019. */
export const cntrBody = z.strictObject({
  cntr: z
    .number({ error: 'cntr must be a whole number' })
    .int('cntr must be a whole number')
    .max(0, 'cntr counts months back: 0, -1, -2…')
    .min(-1200),
});
export const dtBody = z.strictObject({ dt: isoDate });

export interface DayCount {
  Submitted?: number;
  Approved?: number;
}
export interface ApprovedByProfile {
  Approved: number;
  PLApproved: number;
  TRApproved: number;
  HRApproved: number;
}
export interface SubmittedByProfile {
  Submitted: number;
  PLSubmitted: number;
  TRSubmitted: number;
  HRSubmitted: number;
}
export interface MonthCounts {
  Submitted: number;
  Approved: number;
  Closed: number;
  HighRisk: number;
  PayLo: number;
  Traditional: number;
  Unassigned: number;
  CBCAL: number;
  PPS: number;
  Esquire: number;
  Chesapeake: number;
  FirstData: number;
}
/** Approvals by bank and profile: CBCAL_HR, CBCAL_PL, CBCAL_TR, CBCAL_UN, … */
export type BankProfileCounts = Record<string, number>;
export interface YearRow {
  Month: string;
  Approved: number;
}
/**
 * A month's approvals goal. Goals are the company's internal targets and no ISO has goals of its own, so an
 * ISO-bound user gets every month's goal as null (no goal) rather than the company's figure.
 */
export interface GoalRow {
  Month: string;
  goal: number | null;
}
export interface HolidayRow {
  holiday: string;
}
export interface PendingRow {
  Lvl: string;
  lvlCount: number;
}
export interface PartnerRow {
  ISO: string;
  appCount?: number;
  closureCount?: number;
  subCount?: number;
}
export interface PartnerMerchantRow {
  id: number;
  MID: string;
  DBA: string;
  SponsorBank: string;
  profile: string;
  ISO: string;
}
/** An approval of the year-to-date details: `id` is the application's, MID is null until it is boarded. */
export interface ApprovalDetailRow extends Omit<PartnerMerchantRow, 'MID'> {
  MID: string | null;
  approved: string;
}

export const partnerMerchantsBody = z.strictObject({
  iso: z.string().min(1).max(200),
  /** Which partner table the row came from. */
  list: z.enum(['approved', 'closed', 'today']),
  cntr: cntrBody.shape.cntr.default(0),
  inHouse: z.boolean().default(false),
});

export interface LeaderboardRow {
  Name: string;
  Approved: number;
}

// ---------------------------------------------------------------- ISO partners dashboard

export const isoPartnersBody = z.strictObject({
  today: isoDate,
  this_month_start: isoDate,
  this_month_end: isoDate,
  last_month_start: isoDate,
  last_month_end: isoDate,
  this_year_start: isoDate,
  this_year_end: isoDate,
  last_year_start: isoDate,
  last_year_end: isoDate,
});
export type IsoPartnersBody = z.infer<typeof isoPartnersBody>;

export const isoPartnersStatusBody = z.strictObject({
  this_month_start: isoDate,
  this_month_end: isoDate,
  last_90D_start: isoDate,
  last_90D_end: isoDate,
});
export type IsoPartnersStatusBody = z.infer<typeof isoPartnersStatusBody>;

export interface IsoPartnerRow {
  partner: string;
  date_signed: string | null;
  rm: string | null;
  days_since_last_app: number | null;
  approvals_this_month: number;
  approvals_last_month: number;
  approvals_this_year: number;
  approvals_last_year: number;
}

export const ISO_STATUSES = ['Active', 'InActive', 'Dead'] as const;
export type IsoStatus = (typeof ISO_STATUSES)[number];
export interface IsoPartnerStatusRow {
  iso_name: string;
  iso_status: IsoStatus;
  /** The latest application submitted; an application is not an approval, so the status rule ignores it. */
  latest_app_date: string | null;
  /** The latest approval up to the end of the ranges: the date the status rule turns on. */
  latest_approval_date: string | null;
}

/** The ISO partner status rule (spec document 3 §4). */
export function isoStatus(dealsThisMonth: number, dealsLast90Days: number): IsoStatus {
  if (dealsThisMonth >= 1) return 'Active';
  if (dealsLast90Days >= 1) return 'InActive';
  return 'Dead';
}

export const isoPartnersTable = {
  columns: [
    { id: 'partner', label: 'Partner', type: 'text', filter: 'text', sortable: true },
    { id: 'date_signed', label: 'Date signed', type: 'date', filter: 'dateRange', sortable: true },
    { id: 'rm', label: 'RM', type: 'text', filter: 'text', sortable: true },
    {
      id: 'days_since_last_app',
      label: 'Days since last app',
      type: 'integer',
      filter: 'range',
      min: 0,
      sortable: true,
    },
    {
      id: 'approvals_this_month',
      label: 'Approvals this month',
      type: 'integer',
      filter: 'range',
      min: 0,
      total: true,
      sortable: true,
    },
    {
      id: 'approvals_last_month',
      label: 'Approvals last month',
      type: 'integer',
      filter: 'range',
      min: 0,
      total: true,
      sortable: true,
    },
    {
      id: 'approvals_this_year',
      label: 'Approvals this year',
      type: 'integer',
      filter: 'range',
      min: 0,
      total: true,
      sortable: true,
    },
    {
      id: 'approvals_last_year',
      label: 'Approvals last year',
      type: 'integer',
      filter: 'range',
      min: 0,
      total: true,
      sortable: true,
    },
  ],
  pageSizes: [15, 25, 50, 1000],
  defaultPageSize: 15,
  defaultSort: [{ id: 'approvals_this_year', desc: true }],
} as const satisfies TableDef;

/** The ISO performance table for a month: its date ranges come from the month and today. */
export const isoPartnersTableExtra = {
  month: isoDate.refine((d) => d.endsWith('-01'), 'month must be the first day of a month'),
};

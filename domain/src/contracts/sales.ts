import { z } from 'zod';
import { endpoint } from '../endpoint';
import { isoDate, type TableDef, tableEndpoints } from '../table';

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
/**
 * The year's approvals to `dt`; with `from` (PayDesk's addition: a detail modal's month or day), only those from
 * that day on. `from` defaults to the first of January of dt's year.
 */
export const approvalsBody = z
  .strictObject({ dt: isoDate, from: isoDate.optional() })
  .refine((b) => b.from === undefined || (b.from <= b.dt && b.from.slice(0, 4) === b.dt.slice(0, 4)), {
    message: 'from must be a day of the same year as dt, on or before it',
    path: ['from'],
  });
export type ApprovalsBody = z.input<typeof approvalsBody>;

export const dayCount = z.object({ Submitted: z.number().optional(), Approved: z.number().optional() });
export type DayCount = z.output<typeof dayCount>;
export const approvedByProfile = z.object({
  Approved: z.number(),
  PLApproved: z.number(),
  TRApproved: z.number(),
  HRApproved: z.number(),
});
export type ApprovedByProfile = z.output<typeof approvedByProfile>;
export const submittedByProfile = z.object({
  Submitted: z.number(),
  PLSubmitted: z.number(),
  TRSubmitted: z.number(),
  HRSubmitted: z.number(),
});
export type SubmittedByProfile = z.output<typeof submittedByProfile>;
export const monthCounts = z.object({
  Submitted: z.number(),
  Approved: z.number(),
  Closed: z.number(),
  HighRisk: z.number(),
  PayLo: z.number(),
  Traditional: z.number(),
  Unassigned: z.number(),
  CBCAL: z.number(),
  PPS: z.number(),
  Esquire: z.number(),
  Chesapeake: z.number(),
  FirstData: z.number(),
});
export type MonthCounts = z.output<typeof monthCounts>;
/** Approvals by bank and profile: CBCAL_HR, CBCAL_PL, CBCAL_TR, CBCAL_UN, … */
export const bankProfileCounts = z.record(z.string(), z.number());
export type BankProfileCounts = z.output<typeof bankProfileCounts>;
export const yearRow = z.object({ Month: z.string(), Approved: z.number() });
export type YearRow = z.output<typeof yearRow>;
/**
 * A month's approvals goal. Goals are the company's internal targets and no ISO has goals of its own, so an
 * ISO-bound user gets every month's goal as null (no goal) rather than the company's figure.
 */
export const goalRow = z.object({ Month: z.string(), goal: z.number().nullable() });
export type GoalRow = z.output<typeof goalRow>;
export const holidayRow = z.object({ holiday: z.string() });
export type HolidayRow = z.output<typeof holidayRow>;
export const pendingRow = z.object({ Lvl: z.string(), lvlCount: z.number() });
export type PendingRow = z.output<typeof pendingRow>;
export const partnerRow = z.object({
  ISO: z.string(),
  appCount: z.number().optional(),
  closureCount: z.number().optional(),
  subCount: z.number().optional(),
});
export type PartnerRow = z.output<typeof partnerRow>;
export const partnerMerchantRow = z.object({
  id: z.number(),
  MID: z.string(),
  DBA: z.string(),
  SponsorBank: z.string(),
  profile: z.string(),
  ISO: z.string(),
});
export type PartnerMerchantRow = z.output<typeof partnerMerchantRow>;
/** An approval of the year-to-date details: `id` is the application's, MID is null until it is boarded. */
export const approvalDetailRow = partnerMerchantRow.extend({
  MID: z.string().nullable(),
  approved: z.string(),
});
export type ApprovalDetailRow = z.output<typeof approvalDetailRow>;

export const partnerMerchantsBody = z.strictObject({
  iso: z.string().min(1).max(200),
  /** Which partner table the row came from. */
  list: z.enum(['approved', 'closed', 'today']),
  cntr: cntrBody.shape.cntr.default(0),
  inHouse: z.boolean().default(false),
});

export const leaderboardRow = z.object({ Name: z.string(), Approved: z.number() });
export type LeaderboardRow = z.output<typeof leaderboardRow>;

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

export const isoPartnerRow = z.object({
  partner: z.string(),
  date_signed: z.string().nullable(),
  rm: z.string().nullable(),
  days_since_last_app: z.number().nullable(),
  approvals_this_month: z.number(),
  approvals_last_month: z.number(),
  approvals_this_year: z.number(),
  approvals_last_year: z.number(),
});
export type IsoPartnerRow = z.output<typeof isoPartnerRow>;

export const ISO_STATUSES = ['Active', 'InActive', 'Dead'] as const;
export type IsoStatus = (typeof ISO_STATUSES)[number];
export const isoPartnerStatusRow = z.object({
  iso_name: z.string(),
  iso_status: z.enum(ISO_STATUSES),
  /** The latest application submitted; an application is not an approval, so the status rule ignores it. */
  latest_app_date: z.string().nullable(),
  /** The latest approval up to the end of the ranges: the date the status rule turns on. */
  latest_approval_date: z.string().nullable(),
});
export type IsoPartnerStatusRow = z.output<typeof isoPartnerStatusRow>;

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

const list = <T extends z.ZodType>(item: T) => z.array(item);
const post = <O extends z.ZodType>(path: string, summary: string, output: O) =>
  endpoint({ method: 'POST', path, summary, output });
const postCntr = <O extends z.ZodType>(path: string, summary: string, output: O) =>
  endpoint({
    method: 'POST',
    path,
    summary: `${summary} (cntr: months back from this one)`,
    input: cntrBody,
    output,
  });
const postDt = <O extends z.ZodType>(path: string, summary: string, output: O) =>
  endpoint({ method: 'POST', path, summary, input: dtBody, output });
const submitted = z.object({ Submitted: z.number() });
const approved = z.object({ Approved: z.number() });
const closed = z.object({ Closed: z.number() });

/** The Sales dashboard's calls (spec document 1 §7 Sales); each answers a list of records. */
export const salesEndpoints = {
  approvedToday: post(salesPaths.approvedToday, 'Applications approved today', list(approved)),
  submittedToday: post(salesPaths.submittedToday, 'Applications submitted today', list(submitted)),
  approvedTodayInHouse: post(salesPaths.approvedTodayInHouse, 'In-house approvals today', list(approved)),
  submittedTodayInHouse: post(
    salesPaths.submittedTodayInHouse,
    'In-house submissions today',
    list(submitted),
  ),
  approvedTodayByProfile: post(
    salesPaths.approvedTodayByProfile,
    "Today's approvals by profile",
    list(approvedByProfile),
  ),
  submittedTodayByProfile: post(
    salesPaths.submittedTodayByProfile,
    "Today's submissions by profile",
    list(submittedByProfile),
  ),
  approvedYest: post(salesPaths.approvedYest, 'Applications approved yesterday', list(approved)),
  submittedYest: post(salesPaths.submittedYest, 'Applications submitted yesterday', list(submitted)),
  approvedYestByProfile: post(
    salesPaths.approvedYestByProfile,
    "Yesterday's approvals by profile",
    list(approvedByProfile),
  ),
  submittedYestByProfile: post(
    salesPaths.submittedYestByProfile,
    "Yesterday's submissions by profile",
    list(submittedByProfile),
  ),
  submittedApprovedTodayPartner: post(
    salesPaths.submittedApprovedTodayPartner,
    "Today's submissions and approvals per partner",
    list(partnerRow),
  ),
  submittedApprovedTodayInHousePartner: post(
    salesPaths.submittedApprovedTodayInHousePartner,
    "Today's in-house submissions and approvals per partner",
    list(partnerRow),
  ),
  pending45days: post(
    salesPaths.pending45days,
    `Pending applications older than ${PENDING_DAYS} days, per level`,
    list(pendingRow),
  ),
  /** [0]: approvals with their profile counts and their count per bank; [1]: approvals by bank and profile. */
  approvedMTD: postCntr(
    salesPaths.approvedMTD,
    "A month's approvals by profile, bank, and bank and profile",
    z.tuple([monthCounts.omit({ Submitted: true, Closed: true }).catchall(z.number()), bankProfileCounts]),
  ),
  submittedMTD: postCntr(salesPaths.submittedMTD, "A month's submissions", list(submitted)),
  closedMTD: postCntr(salesPaths.closedMTD, "A month's merchant closures", list(closed)),
  approvedMTDInHouse: postCntr(salesPaths.approvedMTDInHouse, "A month's in-house approvals", list(approved)),
  submittedMTDInHouse: postCntr(
    salesPaths.submittedMTDInHouse,
    "A month's in-house submissions",
    list(submitted),
  ),
  approvedMTDPartner: postCntr(
    salesPaths.approvedMTDPartner,
    "A month's approvals per partner",
    list(partnerRow),
  ),
  approvedMTDInHousePartner: postCntr(
    salesPaths.approvedMTDInHousePartner,
    "A month's in-house approvals per partner",
    list(partnerRow),
  ),
  closedMTDPartner: postCntr(salesPaths.closedMTDPartner, "A month's closures per partner", list(partnerRow)),
  day: postDt(salesPaths.day, "A day's submissions and approvals", list(dayCount)),
  month: postDt(salesPaths.month, 'The counts of the month of a day', list(monthCounts)),
  year: postDt(salesPaths.year, 'Approvals per month of the year of a day', list(yearRow)),
  approvedYTDDetails: endpoint({
    method: 'POST',
    path: salesPaths.approvedYTDDetails,
    summary: 'The approvals from the start of the year (or from a day of it) to a day',
    input: approvalsBody,
    output: list(approvalDetailRow),
  }),
  salesYTDgoals: postDt(
    salesPaths.salesYTDgoals,
    'The approvals goal of each month of the year',
    list(goalRow),
  ),
  holiday: postDt(salesPaths.holiday, 'The holidays of the year of a day', list(holidayRow)),
  pend: endpoint({
    method: 'GET',
    path: salesPaths.pend,
    summary: 'Pending applications per level',
    output: list(pendingRow),
  }),
  partnerMerchants: endpoint({
    method: 'POST',
    path: salesPaths.partnerMerchants,
    summary: 'The merchants behind a partner row of the dashboard',
    input: partnerMerchantsBody,
    output: list(partnerMerchantRow),
  }),
  leaderboardUW: post(
    salesPaths.leaderboardUW,
    "This month's approvals per underwriter",
    list(leaderboardRow),
  ),
  leaderboardRM: post(
    salesPaths.leaderboardRM,
    "This month's approvals per relationship manager",
    list(leaderboardRow),
  ),
};

/** The ISO partners dashboard's calls (spec document 3 §7 ISO partners); its table calls are the toolkit's. */
export const isoEndpoints = {
  partners: endpoint({
    method: 'POST',
    path: salesPaths.isoPartners,
    summary: 'Every partner with its approvals this and last month and year',
    input: isoPartnersBody,
    output: list(isoPartnerRow),
  }),
  partnersStatus: endpoint({
    method: 'POST',
    path: salesPaths.isoPartnersStatus,
    summary: "Every partner's status (Active, InActive, Dead) and latest application and approval",
    input: isoPartnersStatusBody,
    output: list(isoPartnerStatusRow),
  }),
};

/** The ISO performance table's calls. */
export const isoPartnersTableEndpoints = tableEndpoints(
  'ISO performance',
  { query: salesPaths.isoPartnersQuery, export: salesPaths.isoPartnersExport },
  isoPartnersTableExtra,
);

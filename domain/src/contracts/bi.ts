import { z } from 'zod';
import { DAILY_MONTHS_KEPT, dailyKept, firstDailyDay, MAX_GROUP_IDS, STATS_FIRST_MONTH } from '../bi/rules';
import { endpoint } from '../endpoint';
import { isoDate } from '../table';
import { normalizeGroupIds } from './bonus';

/**
 * ISO analytics (spec document 2 §2.10, §3, §7, §9) and the executive ISO screen, Business Intelligence (spec
 * document 3 §2.1, §2.7, §3, §4, §7, §9). Definitions of every figure: docs/bi.md.
 *
 * Who may call (enforced by the server): ISO analytics, everyone signed in (an ISO-bound user sees their own
 * ISO's groups only, by row-level security); the executive calls, holders of the `bi` capability.
 * The older system sent a SQL where-clause to /api/isoanalyticsdata; PayDesk keeps the path and the answer and
 * takes the selected groups as a list: a body with `sql` is refused.
 */
export const biPaths = {
  isoAnalyticsOptions: '/api/isoanalyticsoptions',
  isoAnalyticsData: '/api/isoanalyticsdata',
  allInformation: '/api/exec/iso/GetAllInformation',
  transactions: '/api/exec/iso/GetTransactions',
  income: '/api/exec/iso/isoGetIncome',
  mcc: '/api/exec/iso/GetMCC',
} as const;

const refuseSql = <T extends z.ZodType>(schema: T) =>
  z
    .unknown()
    .refine((b) => !(b && typeof b === 'object' && 'sql' in b), {
      message: 'SQL text is not accepted: send the selected groups',
    })
    .pipe(schema);

const month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-01$/, 'Months are written YYYY-MM-01')
  .refine(
    (m) => m >= STATS_FIRST_MONTH && m <= '2100-12-01',
    `Months run from ${STATS_FIRST_MONTH} to 2100-12-01`,
  );

/** At most this many partner groups in one ISO analytics call (the large data set has about 3,000). */
export const MAX_ANALYTICS_GROUPS = 5000;

/**
 * The chosen partner groups by name (none: every group the caller may see) and the stats months, whole months
 * from `start` to `end`; the map and the approvals chart are not limited by the months.
 */
export const isoAnalyticsBody = refuseSql(
  z
    .strictObject({
      groups: z
        .array(z.string().trim().min(1, 'A group name is not empty').max(200))
        .max(MAX_ANALYTICS_GROUPS, `At most ${MAX_ANALYTICS_GROUPS} groups`)
        .default([]),
      start: month.default(STATS_FIRST_MONTH),
      end: month.optional(),
    })
    .transform((b) => ({
      ...b,
      groups: [...new Set(b.groups)],
      end: b.end ?? `${new Date().toISOString().slice(0, 8)}01`,
    }))
    .refine((b) => b.start <= b.end, { message: 'start must not be after end' }),
);
export type IsoAnalyticsBody = z.input<typeof isoAnalyticsBody>;

/** A partner group (GroupLevel1Name) with its ISO. */
export const isoAnalyticsOption = z.object({ partner: z.string(), iso: z.string() });
export const isoAnalyticsOptionsAnswer = z.object({ output: z.array(isoAnalyticsOption) });

/** Analytics graph row (spec 2 §3): a group's approvals in a month (OpenDate: the month, YYYY-MM-01). */
export const analyticsGraphRow = z.object({
  GroupLevel1Name: z.string(),
  OpenDate: z.string(),
  ApprovalCount: z.number(),
});
/** State counts for the map (spec 2 §3): open merchants per state; `state` is the postal code. */
export const stateCountRow = z.object({
  state: z.string(),
  state_lat: z.number(),
  state_lng: z.number(),
  cnt: z.number(),
});
/**
 * ISO stats row (spec 2 §3, 3 §3), one per group; the spec's {product} is the house: HouseProfitPerDeal and
 * HouseProfitPerISO. Dates YYYY-MM-DD; money decimal text; null where there is nothing to divide by.
 */
export const isoStatsRow = z.object({
  groupname: z.string(),
  iso: z.string(),
  first: z.string().nullable(),
  last: z.string().nullable(),
  avgdaysbw: z.string().nullable(),
  openCount: z.number(),
  approvedCount: z.number(),
  retentionPercent: z.string().nullable(),
  TotalIncomePerDeal: z.string().nullable(),
  ISOProfitPerDeal: z.string().nullable(),
  HouseProfitPerDeal: z.string().nullable(),
  HouseProfitPerISO: z.string().nullable(),
});
export type IsoStatsRow = z.output<typeof isoStatsRow>;
export const isoAnalyticsAnswer = z.object({
  output: z.tuple([z.array(analyticsGraphRow), z.array(stateCountRow), z.array(isoStatsRow)]),
});
export type IsoAnalyticsAnswer = z.output<typeof isoAnalyticsAnswer>;

/** ISO info (spec 3 §3): one row per ISO with merchants. Age sets: the five bucket counts, comma-separated. */
export const isoInfoRow = z.object({
  iso_name: z.string(),
  group_id: z.string(),
  approved_deals: z.number(),
  first_deal: z.string().nullable(),
  last_deal: z.string().nullable(),
  average_days_bw_deals: z.string().nullable(),
  open_deals: z.number(),
  closed_deals: z.number(),
  open_longest: z.number().nullable(),
  open_shortest: z.number().nullable(),
  closed_longest: z.number().nullable(),
  closed_shortest: z.number().nullable(),
  open_age_set: z.string(),
  closed_age_set: z.string(),
  cbcal: z.number(),
  esquire: z.number(),
  chesapeake: z.number(),
  pl_count: z.number(),
  tr_count: z.number(),
  hr_count: z.number(),
  ns_count: z.number(),
});
export type IsoInfoRow = z.output<typeof isoInfoRow>;
export const allInformationAnswer = z.array(isoInfoRow);

const groupIDs = z
  .array(z.string().max(2000), { error: 'groupIDs is a list of group IDs' })
  // Each entry may itself be a comma list ("100, 101"): spaces removed, split on commas (spec 3 §7).
  .transform((entries) => [...new Set(entries.flatMap(normalizeGroupIds))])
  .pipe(
    z
      .array(z.string().regex(/^[A-Za-z0-9-]{1,30}$/, 'A group ID is letters, digits and dashes'))
      .min(1, 'Name at least one group ID')
      .max(MAX_GROUP_IDS, `At most ${MAX_GROUP_IDS} group IDs`),
  );
const mcc = z
  .string()
  .regex(/^(All|\d{4})$/, 'mcc is All or a four-digit MCC')
  .default('All');
/** The calls' first day; the executive years start 2017 (spec 3 §9) and the 30-day window may start in 2016. */
const firstDay = isoDate.refine((d) => d >= '2016-01-01' && d <= '2100-12-31', 'date runs from 2016-01-01');

const today = () => new Date().toISOString().slice(0, 10);
/** `end` (PayDesk's addition: the spec's calls run to today) defaults to today and never passes it. */
const capEnd = (end: string | undefined) => {
  const now = today();
  return end === undefined || end > now ? now : end;
};
const endAfterDate = { message: 'date must not be after end' };

/**
 * A window from `date` to `end`: by month (`monthly`) the months of the two days, by day the days, at most 31
 * of them (spec 3 §9), and only days still kept: an earlier day would answer zeros, not the month's activity.
 */
export const transactionsBody = refuseSql(
  z
    .strictObject({
      groupIDs,
      date: firstDay,
      end: isoDate.optional(),
      monthly: z.boolean({ error: 'monthly is true or false' }),
      mcc,
    })
    .transform((b) => ({ ...b, end: capEnd(b.end) }))
    .refine((b) => b.date <= b.end, endAfterDate)
    .refine((b) => b.monthly || dailyKept(b.date, new Date()), {
      error: (issue) =>
        `Daily figures are kept for the last ${DAILY_MONTHS_KEPT} months, from ${firstDailyDay(new Date())}: ` +
        `for ${(issue.input as { date: string }).date}, ask for monthly figures (monthly: true)`,
    })
    .refine((b) => b.monthly || Date.parse(b.end) - Date.parse(b.date) <= 31 * 86_400_000, {
      message: 'A daily window is at most 31 days',
    }),
);
export type TransactionsBody = z.input<typeof transactionsBody>;

/** The months of `date` to `end` (income is monthly). */
export const incomeBody = refuseSql(
  z
    .strictObject({ groupIDs, date: firstDay, end: isoDate.optional(), mcc })
    .transform((b) => ({ ...b, end: capEnd(b.end) }))
    .refine((b) => b.date <= b.end, endAfterDate),
);
export type IncomeBody = z.input<typeof incomeBody>;

export const mccBody = refuseSql(z.strictObject({ groupIDs }));
export type MccBody = z.input<typeof mccBody>;

/**
 * Transaction row (spec 3 §3), one per day or month (txn_date: the day, or the month's first day). mid_count:
 * the groups' merchants open at the period's end; active_count: those with transactions in it. tr/pl/hr/ns:
 * Traditional, PayLo, High Risk, Not Specified.
 */
export const transactionRow = z.object({
  txn_date: z.string(),
  txn_volume: z.number(),
  txn_count: z.number(),
  chbk_volume: z.number(),
  chbk_count: z.number(),
  ref_volume: z.number(),
  ref_count: z.number(),
  mid_count: z.number(),
  active_count: z.number(),
  tr_mid_count: z.number(),
  pl_mid_count: z.number(),
  hr_mid_count: z.number(),
  ns_mid_count: z.number(),
  tr_txn_count: z.number(),
  pl_txn_count: z.number(),
  hr_txn_count: z.number(),
  ns_txn_count: z.number(),
  tr_chbk_count: z.number(),
  pl_chbk_count: z.number(),
  hr_chbk_count: z.number(),
  ns_chbk_count: z.number(),
  tr_ref_count: z.number(),
  pl_ref_count: z.number(),
  hr_ref_count: z.number(),
  ns_ref_count: z.number(),
});
export type TransactionRow = z.output<typeof transactionRow>;
export const transactionsAnswer = z.array(transactionRow);

/** Income row (spec 3 §3), one per month (income_date: its first day); mid_count: merchants with income. */
export const incomeRow = z.object({
  income_date: z.string(),
  gross_income: z.number(),
  net_income: z.number(),
  expenses: z.number(),
  payouts: z.number(),
  mid_count: z.number(),
});
export type IncomeRow = z.output<typeof incomeRow>;
export const incomeAnswer = z.array(incomeRow);

/** MCC row (spec 3 §3): the groups' merchants (open or closed) per MCC. */
export const mccRow = z.object({ mcc_code: z.string(), mcc_desc: z.string(), mcc_count: z.number() });
export type MccRow = z.output<typeof mccRow>;
export const mccAnswer = z.array(mccRow);

export const biEndpoints = {
  isoAnalyticsOptions: endpoint({
    method: 'GET',
    path: biPaths.isoAnalyticsOptions,
    summary: 'The partner groups the caller may analyse, each with its ISO',
    output: isoAnalyticsOptionsAnswer,
  }),
  isoAnalyticsData: endpoint({
    method: 'POST',
    path: biPaths.isoAnalyticsData,
    summary: 'Approvals per group and month, open merchants per state, and the stats row of each group',
    input: isoAnalyticsBody,
    output: isoAnalyticsAnswer,
  }),
  allInformation: endpoint({
    method: 'GET',
    path: biPaths.allInformation,
    summary: 'Every ISO with its group IDs, deals, deal ages and shares (Business Intelligence)',
    output: allInformationAnswer,
  }),
  transactions: endpoint({
    method: 'POST',
    path: biPaths.transactions,
    summary: 'Volume, transactions, chargebacks and refunds of groups per day or month',
    input: transactionsBody,
    output: transactionsAnswer,
  }),
  income: endpoint({
    method: 'POST',
    path: biPaths.income,
    summary: 'Gross and net income, expenses and payouts of groups per month',
    input: incomeBody,
    output: incomeAnswer,
  }),
  mcc: endpoint({
    method: 'POST',
    path: biPaths.mcc,
    summary: "The groups' merchants per MCC",
    input: mccBody,
    output: mccAnswer,
  }),
};

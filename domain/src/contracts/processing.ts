import { z } from 'zod';
import { endpoint, messageAnswer, timestamp } from '../endpoint';
import { PROCESSING_FIRST_YEAR, SUBSCRIPTION_FREQUENCIES } from '../processing/rules';
import { isoDate } from '../table';
import { email, rowId } from './common';

/**
 * The processing dashboard (spec document 2 §2.8, §3 processing data and activation counts, §7, §9), the report
 * export panel 'How to Export' (§2.3, §4) and PayDesk's own additions: budget editing and scheduled reports.
 *
 * Who may do what (enforced by the server): everyone signed in reads the dashboard (an ISO-bound user sees their
 * own ISO's merchants only, as on every dashboard), requests reports for themselves and subscribes themselves;
 * budgets are edited by finance_admin and admin only (the rule `edit_budgets`), each change audited.
 */
export const processingPaths = {
  info: '/api/processinginfo',
  activation: '/api/getActivation',
  email: '/api/email',
  budgets: '/api/app/processing/budgets',
  saveBudget: '/api/app/processing/budget',
  subscriptions: '/api/app/processing/subscriptions',
  subscribe: '/api/app/processing/subscribe',
  cancelSubscription: '/api/app/processing/unsubscribe',
} as const;

const currentYear = () => new Date().getUTCFullYear();

/** A year from 2020 (spec §9 floor) to the current year. */
export const processingYear = z
  .number({ error: 'The year is a whole number' })
  .int('The year is a whole number')
  .refine((y) => y >= PROCESSING_FIRST_YEAR && y <= currentYear(), {
    message: `The year runs from ${PROCESSING_FIRST_YEAR} to the current year`,
  });

/** A day in a year from 2020 to the current one. */
const processingDay = isoDate.refine(
  (d) => Number(d.slice(0, 4)) >= PROCESSING_FIRST_YEAR && Number(d.slice(0, 4)) <= currentYear(),
  { message: `dt must fall in a year from ${PROCESSING_FIRST_YEAR} to the current year` },
);

/**
 * dt: a day (YYYY-MM-DD) of the year shown. historic false (the current year, live): the dashboard month is dt's
 * month, figures through dt. historic true (an earlier year): the whole year, the dashboard month is December.
 * Figures never run past today.
 */
export const processingInfoBody = z.strictObject({
  dt: processingDay,
  historic: z.boolean({ error: 'historic is true or false' }),
});
export type ProcessingInfoBody = z.input<typeof processingInfoBody>;

const amount = z.number();

/** List 1, monthly rows (spec §3): volume and transactions per sponsor bank and month of the year. */
export const processingMonthlyRow = z.object({
  bank: z.string(),
  /** The month, YYYY-MM-01. */
  mth: z.string(),
  txamt: amount,
  txct: z.number(),
});
/**
 * List 2, rows by processor profile (spec §3): `processor` carries the merchant profile (Traditional, PayLo,
 * High Risk, Unassigned). PayDesk adds `mth` so the monthly volume-by-profile chart can be drawn.
 */
export const processingProfileRow = z.object({ processor: z.string(), mth: z.string(), txamt: amount });
/**
 * List 3, daily rows of the dashboard month (spec §3). txamt: the day's volume. budgetamt: the month's budget
 * spread evenly over the budget period's days. benchamt: the volume of the same weekday a year earlier (364
 * days back) across all merchants. benchamtbymerch: the same day a year earlier counting only merchants that
 * process in the dashboard month (like-for-like: growth from the same merchants, not from new boardings).
 */
export const processingDailyRow = z.object({
  day: z.string(),
  txamt: amount,
  benchamt: amount,
  budgetamt: amount,
  benchamtbymerch: amount,
});
/** List 4 (the spec does not say what it holds): the average daily volume of each month of the year. */
export const processingAverageRow = z.object({
  mth: z.string(),
  /** Days of the month with figures (through the last day with data for the month in progress). */
  days: z.number(),
  txamt: amount,
  avgamt: amount,
});
/** List 5, the month budget row (spec §3): the dashboard month's budget period and its budget (all banks). */
export const processingMonthBudgetRow = z.object({ start: z.string(), end: z.string(), budget: amount });
/**
 * List 6, bank period rows (spec §3): per bank, the first and last day of the dashboard month with figures, so
 * the screen can say how current each bank's data is.
 */
export const processingBankPeriodRow = z.object({ bank: z.string(), start: z.string(), end: z.string() });
/** List 7, yearly budget rows (spec §3): each bank's budget per month of the year. */
export const processingYearlyBudgetRow = z.object({ bank: z.string(), mth: z.string(), budget: amount });

/**
 * The headline, computed with the domain rules (processing/rules.ts) so the screen and the e-mailed PDF agree:
 * month-to-date volume, trending volume, budget and budget percent.
 */
export const processingHeadline = z.object({
  /** The dashboard month, YYYY-MM-01. */
  month: z.string(),
  /** The last day with figures. */
  asOf: z.string().nullable(),
  monthToDate: amount,
  trending: amount,
  averageDaily: amount,
  elapsedDays: z.number(),
  periodDays: z.number(),
  basis: z.enum(['complete', 'month', 'previousMonth']),
  budget: amount,
  budgetPercent: z.number().nullable(),
});
export type ProcessingHeadline = z.output<typeof processingHeadline>;

/** The seven lists of spec §3, named, plus the headline. */
export const processingInfoAnswer = z.object({
  monthly: z.array(processingMonthlyRow),
  byProfile: z.array(processingProfileRow),
  daily: z.array(processingDailyRow),
  averages: z.array(processingAverageRow),
  monthBudget: z.array(processingMonthBudgetRow),
  bankPeriods: z.array(processingBankPeriodRow),
  yearlyBudget: z.array(processingYearlyBudgetRow),
  headline: processingHeadline,
});
export type ProcessingInfo = z.output<typeof processingInfoAnswer>;
/** The seven lists' keys in the spec's order (also the report workbook's sheets, with activations last). */
export const PROCESSING_LISTS = [
  'monthly',
  'byProfile',
  'daily',
  'averages',
  'monthBudget',
  'bankPeriods',
  'yearlyBudget',
] as const;
export type ProcessingList = (typeof PROCESSING_LISTS)[number];

/** Activation counts (spec §3): merchants activated per month of dt's year, through dt's month. */
export const activationBody = z.strictObject({ dt: processingDay });
export const activationRow = z.object({ mth: z.string(), cnt: z.number() });
export type ActivationRow = z.output<typeof activationRow>;
export const activationAnswer = z.array(activationRow);

/**
 * Email a report (spec §7): rec must be the signed-in user's own e-mail (reports go to the requester only);
 * yr and qr name one of the seven report quarters (processing/rules.ts reportQuarters). The report is built
 * and mailed by a background job; the answer names it (the screen shows nothing, as the spec says).
 */
export const emailReportBody = z.strictObject({
  rec: email,
  yr: processingYear,
  qr: z
    .number({ error: 'The quarter is 1, 2, 3 or 4' })
    .int('The quarter is 1, 2, 3 or 4')
    .min(1, 'The quarter is 1, 2, 3 or 4')
    .max(4, 'The quarter is 1, 2, 3 or 4'),
});
export type EmailReportBody = z.input<typeof emailReportBody>;
export const emailReportAnswer = messageAnswer.extend({ jobId: z.string() });

/** Budgets of one year, per bank and month. */
export const budgetsQuery = z.strictObject({
  year: z.coerce
    .number({ error: 'The year is a whole number' })
    .int('The year is a whole number')
    .refine((y) => y >= PROCESSING_FIRST_YEAR && y <= currentYear() + 1, {
      message: `Budgets run from ${PROCESSING_FIRST_YEAR} to next year`,
    }),
});
export const budgetRow = z.object({ bank: z.string(), mth: z.string(), budget: amount });
export type BudgetRow = z.output<typeof budgetRow>;
export const budgetsAnswer = z.object({
  year: z.number(),
  /** The sponsor banks merchants are boarded with: the rows a budget can be set for. */
  banks: z.array(z.string()),
  rows: z.array(budgetRow),
  /** Whether the signed-in user may edit (finance_admin, admin). */
  canEdit: z.boolean(),
});
export type BudgetsAnswer = z.output<typeof budgetsAnswer>;

/** The largest budget numeric(16, 2) holds, rounded down to whole millions for a readable message. */
export const MAX_BUDGET = 99_999_999_000_000;
export const saveBudgetBody = z.strictObject({
  bank: z.string({ error: 'bank is required' }).min(1, 'bank is required').max(50, 'bank is too long'),
  mth: z
    .string({ error: 'mth is required' })
    .regex(/^\d{4}-(0[1-9]|1[0-2])-01$/, 'Months are written YYYY-MM-01')
    .refine(
      (m) => Number(m.slice(0, 4)) >= PROCESSING_FIRST_YEAR && Number(m.slice(0, 4)) <= currentYear() + 1,
      {
        message: `Budgets run from ${PROCESSING_FIRST_YEAR} to next year`,
      },
    ),
  budget: z
    .number({ error: 'The budget is a number' })
    .finite('The budget is a number')
    .min(0, 'The budget cannot be negative')
    .max(MAX_BUDGET, 'The budget is too large')
    .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'The budget takes at most two decimals'),
});
export type SaveBudgetBody = z.input<typeof saveBudgetBody>;
export const saveBudgetAnswer = messageAnswer.extend({ row: budgetRow.optional() });

/** Scheduled reports (PayDesk's addition): the signed-in user's subscriptions to the processing report. */
export const subscriptionRow = z.object({
  id: z.number(),
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES),
  created: timestamp,
  /** When the schedule last mailed it; null before the first send. */
  lastSent: timestamp.nullable(),
});
export type SubscriptionRow = z.output<typeof subscriptionRow>;
export const subscriptionsAnswer = z.array(subscriptionRow);
export const subscribeBody = z.strictObject({
  frequency: z.enum(SUBSCRIPTION_FREQUENCIES, { error: 'The frequency is monthly or quarterly' }),
});
export const cancelSubscriptionBody = z.strictObject({ id: rowId });

export const processingEndpoints = {
  info: endpoint({
    method: 'POST',
    path: processingPaths.info,
    summary:
      'The processing dashboard of a year: the seven lists (volume by bank and profile, daily, budgets)',
    input: processingInfoBody,
    output: processingInfoAnswer,
  }),
  activation: endpoint({
    method: 'POST',
    path: processingPaths.activation,
    summary: 'Merchants activated per month of a year',
    input: activationBody,
    output: activationAnswer,
  }),
  email: endpoint({
    method: 'POST',
    path: processingPaths.email,
    summary: 'E-mail a quarter report (XLSX workbook and PDF dashboard) to the signed-in user',
    input: emailReportBody,
    output: emailReportAnswer,
  }),
  budgets: endpoint({
    method: 'GET',
    path: processingPaths.budgets,
    summary: "A year's processing budgets per bank and month",
    input: budgetsQuery,
    output: budgetsAnswer,
  }),
  saveBudget: endpoint({
    method: 'POST',
    path: processingPaths.saveBudget,
    summary: "Set a bank's budget for a month (finance_admin, admin; audited)",
    input: saveBudgetBody,
    output: saveBudgetAnswer,
  }),
  subscriptions: endpoint({
    method: 'GET',
    path: processingPaths.subscriptions,
    summary: "The signed-in user's scheduled processing reports",
    output: subscriptionsAnswer,
  }),
  subscribe: endpoint({
    method: 'POST',
    path: processingPaths.subscribe,
    summary: 'Subscribe to the processing report monthly or quarterly (sent on the first business day)',
    input: subscribeBody,
    output: subscriptionRow,
  }),
  cancelSubscription: endpoint({
    method: 'POST',
    path: processingPaths.cancelSubscription,
    summary: 'Cancel one of your scheduled processing reports',
    input: cancelSubscriptionBody,
    output: messageAnswer,
  }),
};

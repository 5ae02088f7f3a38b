import { z } from 'zod';
import { endpoint } from '../endpoint';
import { monthStart } from '../months';

/**
 * Spec document 1 §2 Financial dashboard, §3 filter options, monthly graph row and average row, §7.
 * The older system sent a SQL where-clause from the browser; PayDesk keeps the paths and the answer fields
 * but takes the selected values per filter group and builds parameterised SQL on the server.
 */
export const financialPaths = {
  options: '/api/finoptions',
  groups: '/api/finoptions/groups',
  average: '/api/finaverage',
  data: '/api/findata',
} as const;

export const FIN_GROUPS = ['profile', 'bank', 'omonth', 'oyear', 'mcc', 'partner'] as const;
export type FinGroup = (typeof FIN_GROUPS)[number];
export const FIN_GROUP_LABELS: Record<FinGroup, string> = {
  profile: 'Profile',
  bank: 'Bank',
  omonth: 'Open Month',
  oyear: 'Open Year',
  mcc: 'MCC',
  partner: 'Partner',
};
/** How a missing value is shown. */
export const NOT_SPECIFIED = 'Not Specified';

/** The dashboard's data starts in 2000; a window longer than this many months is refused. */
export const FIN_FIRST_MONTH = '2000-01-01';
export const FIN_MAX_MONTHS = 240;
const month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-01$/, 'Months are written YYYY-MM-01')
  .refine((m) => m >= FIN_FIRST_MONTH && m <= '2100-12-01', 'Months run from 2000-01-01 to 2100-12-01');
const monthsBetween = (start: string, end: string) =>
  (Number(end.slice(0, 4)) - Number(start.slice(0, 4))) * 12 +
  Number(end.slice(5, 7)) -
  Number(start.slice(5, 7));
const values = <T extends z.ZodType>(item: T) => z.array(item).max(2000).default([]);

export const finFilters = z.strictObject({
  profile: values(z.string().max(50).nullable()),
  bank: values(z.string().max(50).nullable()),
  omonth: values(z.number().int().min(1).max(12)),
  oyear: values(z.number().int().min(2000).max(2100)),
  mcc: values(z.string().max(10).nullable()),
  partner: values(z.string().max(200).nullable()),
});
export type FinFilters = z.input<typeof finFilters>;

const refuseSql = (body: unknown) =>
  !(body && typeof body === 'object' && 'sql' in body) || 'Send the selected filter values, not SQL text';

/** The average over [start, end] (whole months); the dashboard sends the last 12 months or one clicked month. */
export const finAverageBody = z
  .unknown()
  .refine((b) => refuseSql(b) === true, {
    message: 'SQL text is not accepted: send the selected filter values',
  })
  .pipe(
    z
      .strictObject({
        filters: finFilters.default(finFilters.parse({})),
        start: month,
        // The spec's client sends a start date only: the window then runs to the current month.
        end: month.optional(),
      })
      .transform((b) => ({ ...b, end: b.end ?? monthStart(new Date()) }))
      .refine((b) => b.start <= b.end, { message: 'start must not be after end' })
      .refine((b) => monthsBetween(b.start, b.end) < FIN_MAX_MONTHS, {
        message: `The window can be at most ${FIN_MAX_MONTHS} months`,
      }),
  );
export type FinAverageBody = z.input<typeof finAverageBody>;

/** The monthly series from `start` to the current month. */
export const finDataBody = z
  .unknown()
  .refine((b) => refuseSql(b) === true, {
    message: 'SQL text is not accepted: send the selected filter values',
  })
  .pipe(z.strictObject({ filters: finFilters.default(finFilters.parse({})), start: month }));
export type FinDataBody = z.input<typeof finDataBody>;

const list = <T extends z.ZodRawShape>(shape: T) => z.array(z.object(shape));
export const finOptions = z.object({
  profile: list({ Merchant_Profile: z.string().nullable() }),
  bank: list({ Bank: z.string().nullable() }),
  mcc: list({ MCC: z.string().nullable() }),
  descript: list({ Code: z.string(), Description: z.string() }),
  partner: list({ Partner_Name: z.string().nullable() }),
  mid: list({ MID: z.string(), DBA: z.string() }),
  omonth: list({ open_month: z.number() }),
  oyear: list({ open_year: z.number() }),
});
export type FinOptions = z.output<typeof finOptions>;
/**
 * The filter groups' values alone: finoptions without its list of every MID and DBA (86,000 at the large scale,
 * 4 MB), which the dashboard has no filter for. The web app asks this; the older client's finoptions stays whole.
 */
export const finGroupOptions = finOptions.omit({ mid: true });
export type FinGroupOptions = z.output<typeof finGroupOptions>;

/** Averages per merchant-month: volume, transactions and income per merchant and month; age in months. */
export const averageRow = z.object({
  Volume: z.string(),
  Transactions: z.string(),
  Income: z.string(),
  Average_Age: z.string(),
});
export type AverageRow = z.output<typeof averageRow>;
export const finAverageAnswer = z.object({
  /** output[0]: the filtered merchants; output[1]: every merchant, for comparison. */
  output: z.array(averageRow),
});
export type FinAverageAnswer = z.output<typeof finAverageAnswer>;

export const monthlyGraphRow = z.object({
  Year_Months: z.string(),
  Volume: z.string(),
  Transactions: z.number(),
  Income: z.string(),
});
export type MonthlyGraphRow = z.output<typeof monthlyGraphRow>;
export const finDataAnswer = z.object({ output: z.array(monthlyGraphRow) });
export type FinDataAnswer = z.output<typeof finDataAnswer>;

/** The financial dashboard's calls (spec document 1 §7 Financial). */
export const financialEndpoints = {
  options: endpoint({
    method: 'GET',
    path: financialPaths.options,
    summary: 'The values each filter group offers (profiles, banks, MCCs, partners, open months and years)',
    output: finOptions,
  }),
  groups: endpoint({
    method: 'GET',
    path: financialPaths.groups,
    summary:
      "The filter groups' values alone (finoptions without the list of every MID), as the dashboard asks",
    output: finGroupOptions,
  }),
  average: endpoint({
    method: 'POST',
    path: financialPaths.average,
    summary: 'Averages per merchant-month over a month window, for the filtered merchants and for all',
    input: finAverageBody,
    output: finAverageAnswer,
  }),
  data: endpoint({
    method: 'POST',
    path: financialPaths.data,
    summary: 'Monthly volume, transactions and income of the filtered merchants from a start month to now',
    input: finDataBody,
    output: finDataAnswer,
  }),
};

/** Chart and averaging windows of spec document 1 §9. */
export const FIN_AVERAGE_MONTHS = 12;
export const FIN_CHART_DEFAULT_FROM = -5;
export const FIN_CHART_DEFAULT_TO = -1;
export const FIN_CHART_ZOOM_FROM = -4;

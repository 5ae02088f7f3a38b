import { z } from 'zod';
import { endpoint, FILE_ANSWER } from '../endpoint';
import {
  type ColumnDef,
  DATE_BOUNDS_MESSAGE,
  filterState,
  inDateBounds,
  sortState,
  type TableDef,
  tableEndpoints,
  tableExportBody,
  tablePageBody,
} from '../table';

/** Spec document 2 §2.5, §2.6, §2.9, §3, §7: Self Serve, Residual Self Serve, saved reports, Upload Data. */

export const PROFILES = ['PayLo', 'Traditional', 'High Risk', 'Unassigned'] as const;
export type Profile = (typeof PROFILES)[number];
export const BANKS = ['CBCAL', 'PPS', 'Esquire', 'Chesapeake', 'FirstData'] as const;
export type Bank = (typeof BANKS)[number];
export const PROCESSORS = ['TSYS', 'PPS'] as const;
export const MERCHANT_STATUSES = ['Open', 'Closed'] as const;

const month = z
  .string({ error: 'dt is required' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])-01$/, 'dt must be the first day of a month, YYYY-MM-01')
  .refine(inDateBounds, DATE_BOUNDS_MESSAGE);

// ---------------------------------------------------------------- Self Serve

export const SELF_SERVE_FIRST_MONTH = '2016-05-01';

/** An amount: filtered by range, summed in the totals row. */
const money = <Id extends string>(id: Id, label: string, hidden = false) =>
  ({
    id,
    label,
    type: 'money',
    filter: 'range',
    sortable: true,
    total: true,
    ...(hidden ? { hidden } : {}),
  }) as const satisfies ColumnDef<Id>;

/** A count: a whole number, never negative, so its range filter starts at 0; summed in the totals row. */
const count = <Id extends string>(id: Id, label: string) =>
  ({
    id,
    label,
    type: 'integer',
    filter: 'range',
    min: 0,
    sortable: true,
    total: true,
  }) as const satisfies ColumnDef<Id>;

export const selfServeTable = {
  columns: [
    { id: 'banknum', label: 'Bank', type: 'text', filter: 'select', options: BANKS, sortable: true },
    { id: 'groupname', label: 'ISO', type: 'text', filter: 'text', sortable: true },
    { id: 'groupid', label: 'Group ID', type: 'text', filter: 'text', sortable: true, hidden: true },
    { id: 'mid', label: 'MID', type: 'text', filter: 'text', sortable: true, pinned: true },
    { id: 'dba', label: 'DBA', type: 'text', filter: 'text', sortable: true, pinned: true },
    { id: 'legalname', label: 'Legal name', type: 'text', filter: 'text', sortable: true },
    {
      id: 'merchprofile',
      label: 'Profile',
      type: 'text',
      filter: 'select',
      options: PROFILES,
      sortable: true,
    },
    {
      id: 'highrisk',
      label: 'High risk',
      type: 'text',
      filter: 'select',
      options: ['Y', 'N'],
      sortable: true,
    },
    { id: 'assocnum', label: 'Association', type: 'text', filter: 'text', sortable: true, hidden: true },
    { id: 'sic', label: 'MCC', type: 'text', filter: 'text', sortable: true },
    {
      id: 'merchstatus',
      label: 'Status',
      type: 'text',
      filter: 'select',
      options: MERCHANT_STATUSES,
      sortable: true,
    },
    { id: 'email', label: 'Email', type: 'text', filter: 'text', sortable: true },
    { id: 'phone', label: 'Phone', type: 'text', filter: 'text', sortable: true },
    { id: 'cbemail', label: 'Chargeback email', type: 'text', filter: 'text', sortable: true, hidden: true },
    { id: 'Address', label: 'Address', type: 'text', filter: 'text', sortable: true, hidden: true },
    { id: 'City', label: 'City', type: 'text', filter: 'text', sortable: true, hidden: true },
    { id: 'State', label: 'State', type: 'text', filter: 'text', sortable: true, hidden: true },
    { id: 'Zip', label: 'Zip', type: 'text', filter: 'text', sortable: true, hidden: true },
    {
      id: 'fund',
      label: 'Funding',
      type: 'text',
      filter: 'select',
      options: ['Next Day', 'Standard'],
      sortable: true,
      hidden: true,
    },
    { id: 'activationd', label: 'Activated', type: 'date', filter: 'dateRange', sortable: true },
    { id: 'opend', label: 'Opened', type: 'date', filter: 'dateRange', sortable: true },
    { id: 'closed', label: 'Closed', type: 'date', filter: 'dateRange', sortable: true },
    money('tx_amt', 'Volume'),
    count('tx_cnt', 'Transactions'),
    money('cb_amt', 'Chargeback $'),
    count('cb_cnt', 'Chargebacks'),
    money('ref_amt', 'Refund $'),
    count('ref_cnt', 'Refunds'),
    // The merchant's net income (gross less expenses): the same figure as Residual Self Serve's Gross.
    money('income', 'Net income'),
  ],
  pageSizes: [10, 25, 1000],
  defaultPageSize: 10,
  defaultSort: [{ id: 'tx_amt', desc: true }],
} as const satisfies TableDef;

export type SelfServeColumn = (typeof selfServeTable.columns)[number]['id'];
/** Money travels as exact decimal strings, counts as numbers, dates as YYYY-MM-DD. */
export type SelfServeRow = Record<SelfServeColumn, string | number | null>;

// ---------------------------------------------------------------- Residual Self Serve

export const RESIDUAL_FIRST_MONTH = '2021-01-01';
/** The latest residual month is two months before the current one. */
export const RESIDUAL_LAG_MONTHS = 2;

export const residualTable = {
  columns: [
    { id: 'YearMonth', label: 'Month', type: 'text', sortable: true },
    { id: 'MID', label: 'MID', type: 'text', filter: 'text', sortable: true, pinned: true },
    { id: 'DBA', label: 'DBA', type: 'text', filter: 'text', sortable: true, pinned: true },
    {
      id: 'Processor',
      label: 'Processor',
      type: 'text',
      filter: 'select',
      options: PROCESSORS,
      sortable: true,
    },
    { id: 'Agent', label: 'Agent (ISO)', type: 'text', filter: 'text', sortable: true },
    { id: 'Office', label: 'Office', type: 'text', filter: 'text', sortable: true },
    {
      id: 'PayoutSchedule',
      label: 'Payout schedule',
      type: 'text',
      filter: 'select',
      options: ['Monthly', 'Weekly'],
      sortable: true,
    },
    { id: 'PayoutTo', label: 'Payout to', type: 'text', filter: 'text', sortable: true },
    count('Transactions', 'Transactions'),
    money('Volume', 'Volume'),
    // The statement's own words are ambiguous beside Self Serve: its Income is the merchant's gross income,
    // its Gross the net income (gross less expenses) that the ISO's payout is split from.
    money('Income', 'Gross income'),
    money('Gross', 'Residual gross (net income)'),
    money('Net', 'Residual net (after payout)'),
    money('ACHCollectedGross', 'ACH collected gross', true),
    money('ACHCollectedPayout', 'ACH collected payout', true),
    money('ACHCollectedNet', 'ACH collected net', true),
    money('ACHRejectedGross', 'ACH rejected gross', true),
    money('ACHRejectedNet', 'ACH rejected net', true),
    money('RefundsGross', 'Refunds gross', true),
    money('RefundsPayout', 'Refunds payout', true),
    money('RefundsNet', 'Refunds net', true),
    money('TotalGross', 'Total gross'),
    money('TotalPayout', 'Total payout'),
    money('TotalNet', 'Total net'),
    money('Income1', 'Other income', true),
    money('Expense', 'Expenses'),
    money('ProfitLoss', 'Profit / loss'),
  ],
  pageSizes: [10, 25, 1000],
  defaultPageSize: 10,
  defaultSort: [{ id: 'TotalNet', desc: true }],
} as const satisfies TableDef;

export type ResidualColumn = (typeof residualTable.columns)[number]['id'];
export type ResidualRow = Record<ResidualColumn, string | number | null>;

// ---------------------------------------------------------------- calls

export const reportPaths = {
  selfServe: '/api/selfserve',
  searchSelfServe: '/api/searchselfserve',
  selfServeQuery: '/api/selfserve/query',
  selfServeExport: '/api/selfserve/export',
  selfServeImport: '/api/selfserve/import',
  residual: '/api/ResidualSelfServe',
  searchResidual: '/api/searchResidualSelfServe',
  residualQuery: '/api/ResidualSelfServe/query',
  residualExport: '/api/ResidualSelfServe/export',
  residualImport: '/api/ResidualSelfServe/import',
  getAllReports: '/api/getallreports',
  getReport: '/api/getreport',
  saveReport: '/api/savereport',
  deleteReport: '/api/deletereport',
} as const;

/** The spec's calls: the whole month's rows. */
export const monthBody = z.strictObject({ dt: month });
export const searchBody = z.strictObject({ val: z.string().max(100), dt: month.optional() });

/** The table toolkit's calls: one page of the month's rows, and the export of all of them. */
export const monthTableExtra = { dt: month };
export const monthTableBody = tablePageBody(monthTableExtra);
export type MonthTableBody = z.input<typeof monthTableBody>;
export const monthExportBody = tableExportBody(monthTableExtra);
export type MonthExportBody = z.input<typeof monthExportBody>;

// ---------------------------------------------------------------- saved reports

/**
 * Which table a saved report belongs to (self serve, residual and the PCI tables share the spec's calls; the
 * spec gives PCI none of its own).
 */
export const REPORT_TABLES = [
  'selfserve',
  'residual',
  'ach',
  'pci_merchants',
  'pci_billing',
  'pci_commissions',
  'pci_old_merchants',
] as const;
export type ReportTable = (typeof REPORT_TABLES)[number];

const reportTable = z.enum(REPORT_TABLES).default('selfserve');
const reportName = z.string().trim().min(1, 'Give the report a name').max(100, 'The name is too long');

export const getAllReportsBody = z.strictObject({ email: z.string().max(254), table: reportTable });
export const getReportBody = z.strictObject({
  email: z.string().max(254),
  name: reportName,
  table: reportTable,
});
export const deleteReportBody = getReportBody;
export const saveReportBody = z.strictObject({
  email: z.string().max(254),
  name: z.string().max(100).optional(),
  saveTextboxVal: reportName,
  /** JSON text of the filters (and sort and search) */
  filtr: z.string().max(20_000),
  /** JSON text of the visible column ids */
  visCol: z.string().max(5_000),
  table: reportTable,
});
export type SaveReportBody = z.input<typeof saveReportBody>;

/** What a report stores in `filtr`. */
export const savedFilters = z.strictObject({
  filters: z.array(filterState).max(60),
  sort: z.array(sortState).max(3).default([]),
  search: z.string().max(100).default(''),
  pageSize: z.number().int().min(1).max(1000).optional(),
});
export type SavedFilters = z.infer<typeof savedFilters>;
export const savedColumns = z.array(z.string().min(1).max(64)).max(100);

export const savedReportName = z.object({ reportName: z.string() });
export type SavedReportName = z.output<typeof savedReportName>;
export const savedReport = z.object({
  reportName: z.string(),
  /** JSON text of the filters, sort and search (SavedFilters). */
  filters: z.string(),
  /** JSON text of the visible column ids. */
  columns: z.string(),
});
export type SavedReport = z.output<typeof savedReport>;
export const savedReportChange = z.object({ success: z.boolean(), reportName: z.string() });

/** Saved reports (spec document 2 §3, §7), the signed-in user's own. */
export const savedReportEndpoints = {
  getAllReports: endpoint({
    method: 'POST',
    path: reportPaths.getAllReports,
    summary: "The names of the signed-in user's saved reports of a table",
    input: getAllReportsBody,
    output: z.array(savedReportName),
  }),
  getReport: endpoint({
    method: 'POST',
    path: reportPaths.getReport,
    summary: 'One saved report: its filters and visible columns as JSON text',
    input: getReportBody,
    output: savedReport,
  }),
  saveReport: endpoint({
    method: 'POST',
    path: reportPaths.saveReport,
    summary: 'Saves (or replaces) a named report of filters and visible columns',
    input: saveReportBody,
    output: savedReportChange,
  }),
  deleteReport: endpoint({
    method: 'POST',
    path: reportPaths.deleteReport,
    summary: 'Deletes a saved report',
    input: deleteReportBody,
    output: savedReportChange,
  }),
};

// ---------------------------------------------------------------- Upload Data

export const UPLOAD_TYPES = ['adjustments', 'schedulea', 'residual_tsys', 'residual_pps'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

export interface UploadColumn {
  header: string;
  /** Also accepted as the header: the column's label in an export of the table. */
  label?: string;
  type: 'text' | 'month' | 'date' | 'money' | 'integer' | 'decimal';
  required: boolean;
}

const residualUploadColumns: readonly UploadColumn[] = [
  { header: 'YearMonth', type: 'month', required: true },
  { header: 'MID', type: 'text', required: true },
  { header: 'DBA', type: 'text', required: false },
  { header: 'Agent', type: 'text', required: false },
  { header: 'Office', type: 'text', required: false },
  { header: 'PayoutSchedule', type: 'text', required: false },
  { header: 'PayoutTo', type: 'text', required: false },
  { header: 'Transactions', type: 'integer', required: true },
  { header: 'Volume', type: 'money', required: true },
  { header: 'Income', type: 'money', required: true },
  { header: 'Gross', type: 'money', required: true },
  { header: 'Net', type: 'money', required: true },
  { header: 'ACHCollectedGross', type: 'money', required: false },
  { header: 'ACHCollectedPayout', type: 'money', required: false },
  { header: 'ACHCollectedNet', type: 'money', required: false },
  { header: 'ACHRejectedGross', type: 'money', required: false },
  { header: 'ACHRejectedNet', type: 'money', required: false },
  { header: 'RefundsGross', type: 'money', required: false },
  { header: 'RefundsPayout', type: 'money', required: false },
  { header: 'RefundsNet', type: 'money', required: false },
  { header: 'TotalGross', type: 'money', required: true },
  { header: 'TotalPayout', type: 'money', required: true },
  { header: 'TotalNet', type: 'money', required: true },
  { header: 'Income1', type: 'money', required: false },
  { header: 'Expense', type: 'money', required: true },
  { header: 'ProfitLoss', type: 'money', required: true },
];

/** Each upload type's file layout: the first sheet, a header row, then one record per row in this order. */
export const uploadTypes: Record<
  UploadType,
  { label: string; columns: readonly UploadColumn[]; replaces: string }
> = {
  adjustments: {
    label: 'Adjustments',
    columns: [
      { header: 'YearMonth', type: 'month', required: true },
      { header: 'MID', type: 'text', required: true },
      { header: 'Category', type: 'text', required: true },
      { header: 'Description', type: 'text', required: false },
      { header: 'Amount', type: 'money', required: true },
    ],
    replaces: 'the adjustments of every month in the file',
  },
  schedulea: {
    label: 'ScheduleA',
    columns: [
      { header: 'ISO', type: 'text', required: true },
      { header: 'Item', type: 'text', required: true },
      { header: 'Category', type: 'text', required: true },
      { header: 'RateBps', type: 'decimal', required: false },
      { header: 'PerItem', type: 'money', required: false },
      { header: 'EffectiveDate', type: 'date', required: true },
    ],
    replaces: 'the Schedule A of every ISO and effective date in the file',
  },
  residual_tsys: {
    label: 'Residual_TSYS',
    columns: residualUploadColumns,
    replaces: 'the TSYS residuals of every month in the file',
  },
  residual_pps: {
    label: 'Residual_PPS',
    columns: residualUploadColumns,
    replaces: 'the PPS residuals of every month in the file',
  },
};

export const uploadPath = (type: UploadType) => `/api/upload${type}`;
export const uploadExportPath = (type: UploadType) => `/api/${type}`;
export const uploadExportFilePath = (type: UploadType) => `/api/${type}/export`;

/** The spec's JSON form of an upload: the rows after the header, as arrays. */
export const uploadJsonBody = z.strictObject({
  records: z.array(z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).max(100)).max(200_000),
  filename: z
    .string()
    .max(255)
    .regex(/\.xlsx$/i, 'Only .xlsx files can be imported'),
});

export const uploadExportBody = z.strictObject({ month: month.optional() });

export const importProblem = z.object({
  /** Row number in the sheet (the header is row 1). */
  row: z.number(),
  column: z.string().optional(),
  message: z.string(),
});
export type ImportProblem = z.output<typeof importProblem>;

export const importAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  rows: z.number().optional(),
  problems: z.array(importProblem).optional(),
});
export type ImportAnswer = z.output<typeof importAnswer>;

/** Upload Data's calls of one upload type (spec document 2 §7). */
export function uploadEndpoints(type: UploadType) {
  const { label } = uploadTypes[type];
  return {
    import: endpoint({
      method: 'POST',
      path: uploadPath(type),
      summary: `Imports ${label}: an .xlsx file as the request body, or its rows as JSON; replaces ${uploadTypes[type].replaces}`,
      input: uploadJsonBody,
      output: importAnswer,
    }),
    rows: endpoint({
      method: 'POST',
      path: uploadExportPath(type),
      summary: `The ${label} rows of a month (Schedule A: all), keyed by the file layout's headers`,
      input: uploadExportBody,
      output: z.array(z.record(z.string(), z.unknown())),
    }),
    file: endpoint({
      method: 'POST',
      path: uploadExportFilePath(type),
      summary: `The ${label} rows of a month as an .xlsx file in the upload layout`,
      input: uploadExportBody,
      output: FILE_ANSWER,
    }),
  };
}

/** At most this many problems are reported for a rejected file. */
export const MAX_IMPORT_PROBLEMS = 100;
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Import XLSX on Self Serve: one month's activity per MID for the month on screen (re-importing a MID's
 * month replaces it). Column headers are the Self Serve column ids.
 */
export const selfServeImportColumns: readonly UploadColumn[] = withLabels(selfServeTable.columns, [
  { header: 'mid', type: 'text', required: true },
  { header: 'tx_amt', type: 'money', required: true },
  { header: 'tx_cnt', type: 'integer', required: true },
  { header: 'cb_amt', type: 'money', required: true },
  { header: 'cb_cnt', type: 'integer', required: true },
  { header: 'ref_amt', type: 'money', required: true },
  { header: 'ref_cnt', type: 'integer', required: true },
  { header: 'income', type: 'money', required: true },
]);

/** Gives each layout column the label of the table column of the same id. */
function withLabels(columns: readonly ColumnDef[], layout: readonly UploadColumn[]): UploadColumn[] {
  return layout.map((c) => {
    const label = columns.find((col) => col.id === c.header)?.label;
    return label && label !== c.header ? { ...c, label } : c;
  });
}

/**
 * Import XLSX on Residual Self Serve: residual rows in the table's full column order (an export with every
 * column shown imports back as it is); each (processor, month) in the file is replaced.
 */
export const residualImportColumns: readonly UploadColumn[] = withLabels(residualTable.columns, [
  ...residualUploadColumns.slice(0, 3),
  { header: 'Processor', type: 'text', required: true },
  ...residualUploadColumns.slice(3),
]);

export const monthImportQuery = z.strictObject({ dt: month });

/** A report row keyed by column id: money as exact decimal strings, counts as numbers, dates as YYYY-MM-DD. */
const reportRow = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

function monthReportEndpoints(name: string, paths: { legacy: string; search: string; import: string }) {
  return {
    month: endpoint({
      method: 'POST',
      path: paths.legacy,
      summary: `${name}: every row of a month`,
      input: monthBody,
      output: z.array(reportRow),
    }),
    search: endpoint({
      method: 'POST',
      path: paths.search,
      summary: `${name}: the rows of a month matching a search text (at most 1000)`,
      input: searchBody,
      output: z.array(reportRow),
    }),
    import: endpoint({
      method: 'POST',
      path: paths.import,
      summary: `${name}: imports an .xlsx file sent as the request body (query: dt, the month on screen)`,
      output: importAnswer,
    }),
  };
}

/** Self Serve and Residual Self Serve (spec document 2 §7); their table calls are the table toolkit's. */
export const reportEndpoints = {
  selfServeTable: tableEndpoints(
    'Self Serve',
    { query: reportPaths.selfServeQuery, export: reportPaths.selfServeExport },
    monthTableExtra,
  ),
  residualTable: tableEndpoints(
    'Residual Self Serve',
    { query: reportPaths.residualQuery, export: reportPaths.residualExport },
    monthTableExtra,
  ),
  selfServe: monthReportEndpoints('Self Serve', {
    legacy: reportPaths.selfServe,
    search: reportPaths.searchSelfServe,
    import: reportPaths.selfServeImport,
  }),
  residual: monthReportEndpoints('Residual Self Serve', {
    legacy: reportPaths.residual,
    search: reportPaths.searchResidual,
    import: reportPaths.residualImport,
  }),
};

import { z } from 'zod';
import { ACH_CLASSIFICATIONS, ACH_MERCHANT_STATUSES, ACH_RESOLUTIONS } from '../ach/classification';
import { ACH_EDITABLE_COLUMNS } from '../ach/edits';
import { ENTRY_DESCRIPTION_LABELS, ENTRY_DESCRIPTIONS, RETURN_CODE_NAMES, RETURN_CODES } from '../ach/labels';
import { RETURN_RATE_KINDS } from '../ach/rates';
import { endpoint, messageAnswer, timestamp } from '../endpoint';
import { type ColumnDef, type TableDef, tableEndpoints } from '../table';
import { rowId } from './common';
import {
  getAllReportsBody,
  getReportBody,
  savedReport,
  savedReportChange,
  savedReportName,
  saveReportBody,
} from './reports';

/**
 * ACH returns (spec document 2 §2.7, §3, §4, §5, §7, §9; document 3 §7): every returned debit to a merchant's
 * account, classified, worked and resolved. Field names are the spec's. The calls under /api/app/ach are
 * PayDesk's own (the table, a row's history, the return-rate panel).
 *
 * Who may do what (enforced by the server): everyone signed in reads and exports, ISO-bound users their own
 * ISO's rows only (row-level security); editing (/api/updateACH) needs the capability `ach_edit`.
 */

export const achPaths = {
  /** The spec's call: rejects, reserve info per MID, occurrence per MID. */
  list: '/api/ach',
  update: '/api/updateACH',
  getAllReports: '/api/getallACHreports',
  getReport: '/api/getachreport',
  saveReport: '/api/saveACHreport',
  deleteReport: '/api/deleteachreport',
  tableQuery: '/api/app/ach/query',
  tableExport: '/api/app/ach/export',
  history: '/api/app/ach/history',
  returnRates: '/api/app/ach/returnRates',
} as const;

export const ACH_PAGE_SIZES = [25, 50, 100, 200, 500] as const;
export const ACH_DEFAULT_PAGE_SIZE = 25;
/** /api/ach answers at most this many rejects (the newest): the screen itself pages on the server. */
export const ACH_LIST_LIMIT = 5000;
export const ACH_EXPORT_FILE = 'ACH_Returns.xlsx';
export const ACH_EXPORT_SHEET = 'ACH Returns';

const money = <Id extends string>(id: Id, label: string, extra: Partial<ColumnDef<Id>> = {}) =>
  ({ id, label, type: 'money', filter: 'range', sortable: true, ...extra }) as const satisfies ColumnDef<Id>;
const day = <Id extends string>(id: Id, label: string, extra: Partial<ColumnDef<Id>> = {}) =>
  ({
    id,
    label,
    type: 'date',
    filter: 'dateRange',
    sortable: true,
    ...extra,
  }) as const satisfies ColumnDef<Id>;
const text = <Id extends string>(id: Id, label: string, extra: Partial<ColumnDef<Id>> = {}) =>
  ({ id, label, type: 'text', filter: 'text', sortable: true, ...extra }) as const satisfies ColumnDef<Id>;

const returnCodeOptionLabels = Object.fromEntries(
  RETURN_CODES.map((c) => [c, `${c} ${RETURN_CODE_NAMES[c]}`]),
);
const entryDescriptionOptionLabels = Object.fromEntries(
  ENTRY_DESCRIPTIONS.map((d) => [d, d === 'FEES' ? 'Monthly Fees' : ENTRY_DESCRIPTION_LABELS[d]]),
);

/**
 * The ACH table: every field of the ACH return row, then the derived columns. Codes travel as stored
 * (AddendaRelated 'R01', CompanyEntryDescription 'DAILY DISC'); the screen shows them with returnCodeLabel and
 * entryDescriptionLabel (the fees' month comes from EffectiveEntryDATE), the select filters with optionLabels.
 * `version` is the row's edit counter: the screen sends the one it loaded with each edit.
 */
export const achTable = {
  columns: [
    { id: 'main_unique_key', label: 'Key', type: 'integer', sortable: true, hidden: true },
    {
      id: 'historic',
      label: 'Historic',
      type: 'integer',
      filter: 'select',
      options: ['0', '1'],
      optionLabels: { '0': 'Live', '1': 'Historic (Excel)' },
      sortable: true,
      hidden: true,
    },
    day('FileCreationDATE', 'File date'),
    text('IndividualIdentificationNumber', 'MID', { pinned: true }),
    text('DBAName', 'DBA', { pinned: true }),
    text('LegalName', 'Legal name'),
    text('GroupLevel1Name', 'ISO'),
    {
      id: 'CompanyEntryDescription',
      label: 'Entry description',
      type: 'text',
      filter: 'select',
      options: ENTRY_DESCRIPTIONS,
      optionLabels: entryDescriptionOptionLabels,
      sortable: true,
    },
    money('TransactionAmount', 'Amount', { total: true }),
    {
      id: 'AddendaRelated',
      label: 'Return code',
      type: 'text',
      filter: 'select',
      options: RETURN_CODES,
      optionLabels: returnCodeOptionLabels,
      sortable: true,
    },
    {
      id: 'classification',
      label: 'Class',
      type: 'text',
      filter: 'select',
      options: ACH_CLASSIFICATIONS,
      sortable: true,
    },
    {
      id: 'rejRes',
      label: 'Resolution',
      type: 'text',
      filter: 'select',
      options: ACH_RESOLUTIONS,
      sortable: true,
    },
    day('resDate', 'Resolved'),
    day('lastProcDate', 'Last processed', { hidden: true }),
    text('rejDDA', 'DDA', { hidden: true }),
    text('comment', 'Comment'),
    money('usedRsv', 'Used reserve', { total: true }),
    day('usedRsvDate', 'Used reserve date', { hidden: true }),
    money('reRan', 'Re-ran', { total: true }),
    day('reRanDate', 'Re-ran date', { hidden: true }),
    money('sentToColl', 'Sent to coll.', { total: true }),
    money('writeOff', 'Write off', { total: true }),
    {
      id: 'MerchantStatus',
      label: 'Merchant status',
      type: 'text',
      filter: 'select',
      options: ACH_MERCHANT_STATUSES,
      sortable: true,
    },
    money('rsvHold', 'Reserve hold', { hidden: true }),
    money('rsvCeiling', 'Reserve ceiling', { hidden: true }),
    money('rsvBalance', 'Reserve balance'),
    { id: 'occurrence', label: 'Occurrence', type: 'integer', filter: 'range', min: 0, sortable: true },
    money('merchRejBal', 'Merch. rej. balance'),
    {
      id: 'Alert',
      label: 'Alert',
      type: 'text',
      filter: 'select',
      options: ['Yes', 'No'],
      sortable: true,
    },
    {
      id: 'datetimeWorked',
      label: 'Worked at',
      type: 'datetime',
      filter: 'dateRange',
      sortable: true,
      hidden: true,
    },
    text('workedBy', 'Worked by', { hidden: true }),
    day('EffectiveEntryDATE', 'Entry date'),
    text('OriginatingDFIIdentification', 'Originating DFI', { hidden: true }),
    { id: 'version', label: 'Row version', type: 'integer', hidden: true },
  ],
  pageSizes: ACH_PAGE_SIZES,
  defaultPageSize: ACH_DEFAULT_PAGE_SIZE,
  defaultSort: [
    { id: 'FileCreationDATE', desc: true },
    { id: 'main_unique_key', desc: true },
  ],
} as const satisfies TableDef;

export type AchColumn = (typeof achTable.columns)[number]['id'];
/**
 * A table row keyed by column id: money as exact decimal strings, dates YYYY-MM-DD, datetimeWorked ISO 8601,
 * historic 0 or 1, Alert 'Yes' or 'No'.
 */
export type AchRow = Record<AchColumn, string | number | null>;

// ---------------------------------------------------------------- /api/ach

/** A reject as /api/ach lists it: the spec's fields, without the derived ones. */
const nullableText = z.string().nullable();
export const achReject = z.object({
  main_unique_key: z.number(),
  historic: z.number(),
  FileCreationDATE: nullableText,
  IndividualIdentificationNumber: z.string(),
  DBAName: nullableText,
  LegalName: nullableText,
  GroupLevel1Name: nullableText,
  CompanyEntryDescription: nullableText,
  TransactionAmount: z.string(),
  AddendaRelated: nullableText,
  rejRes: nullableText,
  resDate: nullableText,
  lastProcDate: nullableText,
  rejDDA: nullableText,
  comment: nullableText,
  usedRsv: nullableText,
  usedRsvDate: nullableText,
  reRan: nullableText,
  reRanDate: nullableText,
  sentToColl: nullableText,
  writeOff: nullableText,
  MerchantStatus: nullableText,
  datetimeWorked: timestamp.nullable(),
  workedBy: nullableText,
  EffectiveEntryDATE: nullableText,
  OriginatingDFIIdentification: nullableText,
  version: z.number(),
});
export type AchReject = z.output<typeof achReject>;

export const achReserve = z.object({
  IndividualIdentificationNumber: z.string(),
  rsvBalance: z.string(),
  rsvHold: z.string(),
  rsvCeiling: z.string(),
});
export const achOccurrence = z.object({ IndividualIdentificationNumber: z.string(), occurrence: z.number() });

export const achListBody = z.strictObject({}).optional();
export const achListAnswer = z.object({
  /** The newest rejects, at most ACH_LIST_LIMIT. */
  rejects: z.array(achReject),
  /** Reserve info of the MIDs in `rejects`. */
  reserves: z.array(achReserve),
  /** Return count of the MIDs in `rejects`. */
  occurrence: z.array(achOccurrence),
  /** True when there were more rejects than the list holds. */
  truncated: z.boolean(),
});
export type AchListAnswer = z.output<typeof achListAnswer>;

// ---------------------------------------------------------------- /api/updateACH

/** The spec's key: a number, or its text as the older client sends it. */
const uniqueKey = z
  .union([z.number(), z.string().regex(/^\d{1,10}$/, 'unique_key is a row number')], {
    error: 'unique_key is a row number',
  })
  .transform((v) => Number(v))
  .pipe(rowId);

/** 1 (or true) for a row imported from the spreadsheet, 0 (or false) for a live one. */
const historicFlag = z
  .union([z.literal(0), z.literal(1), z.boolean(), z.literal('0'), z.literal('1')], {
    error: 'historic is 0 or 1',
  })
  .transform((v) => v === 1 || v === true || v === '1');

export const updateAchBody = z.strictObject({
  unique_key: uniqueKey,
  column: z.enum(ACH_EDITABLE_COLUMNS, {
    error: `column must be one of: ${ACH_EDITABLE_COLUMNS.join(', ')}`,
  }),
  /** Text as typed; '' or null clears the cell. Checked by parseAchEdit. */
  value: z.union([z.string().max(2000, 'The value is too long'), z.number(), z.null()], {
    error: 'value is text, a number or null',
  }),
  historic: historicFlag.default(false),
  /**
   * PayDesk's addition: the row's `version` as it was loaded. When sent, an edit to a row that changed since
   * is refused (409) instead of overwriting the other person's change.
   */
  version: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type UpdateAchBody = z.input<typeof updateAchBody>;

export const updateAchAnswer = messageAnswer.extend({
  /** The row as it now is, derived columns included (another row of the legal name may have changed too). */
  row: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
});
export type UpdateAchAnswer = z.output<typeof updateAchAnswer>;

// ---------------------------------------------------------------- history

export const achHistoryBody = z.strictObject({
  unique_key: uniqueKey,
  historic: historicFlag.default(false),
});
export const achChange = z.object({
  column: z.string(),
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
  changedBy: z.string().nullable(),
  changedAt: timestamp,
});
export type AchChange = z.output<typeof achChange>;

// ---------------------------------------------------------------- return rates

export const RETURN_RATE_LEVELS = ['merchant', 'iso'] as const;
export type ReturnRateLevel = (typeof RETURN_RATE_LEVELS)[number];
export const RETURN_RATE_PANEL_DEFAULT_LIMIT = 50;

export const returnRatesBody = z.strictObject({
  level: z.enum(RETURN_RATE_LEVELS, { error: 'level is merchant or iso' }),
  limit: z.number().int().min(1).max(500).default(RETURN_RATE_PANEL_DEFAULT_LIMIT),
});

export const returnRateRow = z.object({
  /** The MID (merchant level) or the ISO's name (ISO level): what the click-through filters the table by. */
  key: z.string(),
  mid: z.string().nullable(),
  dba: z.string().nullable(),
  iso: z.string(),
  entries: z.number(),
  returns: z.number(),
  unauthorized: z.number(),
  administrative: z.number(),
  /** Fractions (0.005 is 0.5 %), null without entries. */
  unauthorizedRate: z.number().nullable(),
  administrativeRate: z.number().nullable(),
  overallRate: z.number().nullable(),
  over: z.array(z.enum(RETURN_RATE_KINDS)),
});
export type ReturnRateRow = z.output<typeof returnRateRow>;

export const returnRatesAnswer = z.object({
  /** The window: the 60 days ending `to`, both included. */
  from: z.string(),
  to: z.string(),
  level: z.enum(RETURN_RATE_LEVELS),
  /** Those over a threshold first (the most severe first), then the highest overall rates. */
  rows: z.array(returnRateRow),
  /** How many merchants (or ISOs) are over at least one threshold, of `total` with entries or returns. */
  overCount: z.number(),
  total: z.number(),
});
export type ReturnRatesAnswer = z.output<typeof returnRatesAnswer>;

// ---------------------------------------------------------------- calls

const achReportEmail = getAllReportsBody.omit({ table: true });
const achReportName = getReportBody.omit({ table: true });

export const achEndpoints = {
  list: endpoint({
    method: 'POST',
    path: achPaths.list,
    summary: 'ACH returns: the newest rejects, reserve info per MID and occurrence per MID',
    input: achListBody,
    output: achListAnswer,
  }),
  update: endpoint({
    method: 'POST',
    path: achPaths.update,
    summary:
      'Sets one editable column of an ACH row; sets workedBy and datetimeWorked, keeps the change in its history (ach_edit)',
    input: updateAchBody,
    output: updateAchAnswer,
  }),
  table: tableEndpoints('ACH returns', { query: achPaths.tableQuery, export: achPaths.tableExport }, {}),
  history: endpoint({
    method: 'POST',
    path: achPaths.history,
    summary: "An ACH row's changes (who, when, column, old, new), newest first",
    input: achHistoryBody,
    output: z.array(achChange),
  }),
  returnRates: endpoint({
    method: 'POST',
    path: achPaths.returnRates,
    summary:
      'Return rates over the last 60 days per merchant or per ISO against the NACHA thresholds, those over first',
    input: returnRatesBody,
    output: returnRatesAnswer,
  }),
  getAllReports: endpoint({
    method: 'POST',
    path: achPaths.getAllReports,
    summary: "The names of the signed-in user's saved ACH reports",
    input: achReportEmail,
    output: z.array(savedReportName),
  }),
  getReport: endpoint({
    method: 'POST',
    path: achPaths.getReport,
    summary: 'One saved ACH report: its filters and visible columns as JSON text',
    input: achReportName,
    output: savedReport,
  }),
  saveReport: endpoint({
    method: 'POST',
    path: achPaths.saveReport,
    summary: 'Saves (or replaces) a named ACH report of filters and visible columns',
    input: saveReportBody.omit({ table: true }),
    output: savedReportChange,
  }),
  deleteReport: endpoint({
    method: 'POST',
    path: achPaths.deleteReport,
    summary: 'Deletes a saved ACH report',
    input: achReportName,
    output: savedReportChange,
  }),
};

import { z } from 'zod';
import { endpoint, FILE_ANSWER, messageAnswer, timestamp } from '../endpoint';
import { isoDate, type TableDef, tableEndpoints } from '../table';
import { requiredText } from './common';
import { importAnswer, type UploadColumn, uploadJsonBody } from './reports';

/**
 * Partners (spec document 2 §2.4, §3, §4, §7): the directory of ISOs synced from the CRM, their processing
 * groups, group ID allocation, rev shares and the CRM import. Paths and field names are the spec's; the
 * calls under /api/app/partners are PayDesk's own (the table reading, the detail card, rev share history).
 *
 * Who may do what (enforced by the server): everyone signed in reads, exports and starts the CRM import
 * (internal staff only for the import: it changes every ISO); editing (Add Group ID, Last Utilized Group IDs,
 * rev shares) needs the capability `partners_edit`; Import XLSX the rule `import_reports` (admin,
 * sales_admin). An ISO-bound user sees only their own account and never edits.
 */

export const partnerPaths = {
  list: '/api/partner',
  search: '/api/searchpartner',
  getPartners: '/api/partners/GetPartners',
  addGroupId: '/api/partners/AddGroupId',
  updateRevShare: '/api/partners/UpdateRevShare',
  lastGroupIds: '/api/partners/GetLastGroupIds',
  importCrm: '/api/importSFPartners',
  importStatus: '/api/checkLambdaRuntime',
  /** Import XLSX: the spec's /api/upload{filetype} with filetype partner. */
  upload: '/api/uploadpartner',
  /** Export XLSX: Partners.xlsx, sheet 'Partners'. The rows themselves come from /api/partner. */
  export: '/api/partner/export',
  tableQuery: '/api/app/partners/query',
  tableExport: '/api/app/partners/export',
  account: '/api/app/partners/account',
  revShareHistory: '/api/app/partners/revShareHistory',
} as const;

/** The banks and profiles Add Group ID offers (spec §9); new groups get the processor TSYS. */
export const GROUP_BANKS = ['CBCAL', 'Esquire', 'Chesapeake'] as const;
export type GroupBank = (typeof GROUP_BANKS)[number];
export const GROUP_PROFILES = ['PayLo', 'Traditional', 'High Risk'] as const;
export type GroupProfile = (typeof GROUP_PROFILES)[number];
export const NEW_GROUP_PROCESSOR = 'TSYS';

/** Account statuses as shown: Active green, Inactive yellow, anything else Dead in red (spec §4). */
export const PARTNER_STATUSES = ['Active', 'Inactive', 'Dead'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];
export const partnerStatusShown = (status: string | null | undefined): PartnerStatus =>
  status === 'Active' || status === 'Inactive' ? status : 'Dead';

/** The search reading's page: 60 rows, an account never split across pages (spec §9). */
export const PARTNER_ROWS_PER_PAGE = 60;
/** Import job poll (spec §9). */
export const PARTNER_IMPORT_POLL_MS = 1000;
/** Last Utilized Group IDs: this many of the latest allocations per bank. */
export const LAST_GROUP_IDS_PER_BANK = 10;

/**
 * A rev share as entered: a percentage from 0 to 100 with at most two decimals, as a number or as the text
 * of the input. The output is the percentage as a number; it is stored as a fraction (÷ 100).
 */
export const revSharePercent = z
  .union([z.number(), z.string()], { error: 'Rev share must be a number' })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    const n = typeof value === 'number' ? value : text === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: 'Rev share must be a number' });
      return z.NEVER;
    }
    if (n < 0 || n > 100) {
      ctx.addIssue({ code: 'custom', message: 'Rev share must be between 0 and 100 (a percentage)' });
      return z.NEVER;
    }
    if (Math.abs(n * 100 - Math.round(n * 100)) > 1e-7) {
      ctx.addIssue({ code: 'custom', message: 'Rev share takes at most two decimals' });
      return z.NEVER;
    }
    return Math.round(n * 100) / 100;
  });

/** A spec field that is text in the CRM and may be empty. */
const text = z.string().nullable();
/** A date cut to YYYY-MM-DD (the screen shows the first 10 characters). */
const day = z.string().nullable();

/** The account fields every reading shares (spec §3 partner account). `isc` is a fraction like rev_share. */
const accountFields = {
  accountid: z.string(),
  accountname: z.string(),
  status: z.string(),
  rm: text,
  recruiter: text,
  isc: z.number().nullable(),
  liability: text,
  datesigned: day,
  fullname: text,
  processingemail: text,
  phone: text,
  billingstreet: text,
  billingcity: text,
  billingstate: text,
  billingzip: text,
  operationemail: text,
};

/** A processing group (spec §3 group). `rev_share` is a fraction: 0.8 is 80 %. */
export const partnerGroup = z.object({
  group_sf_id: z.string(),
  groupname: z.string(),
  groupid: z.string(),
  association_number: z.string().nullable(),
  rev_share: z.number(),
  bank: text,
  profile: text,
  processor: z.string(),
  effectivedate: z.string(),
});
export type PartnerGroup = z.output<typeof partnerGroup>;

/**
 * The search reading's row (spec §3 partner row): one per account-group pair, group fields null for an
 * account without groups. `accountid` and `billingstreet` are PayDesk's additions (the grouping key, the
 * export's address).
 */
export const partnerDirectoryRow = z.object({
  ...accountFields,
  groupname: text,
  groupid: text,
  bank: text,
  profile: text,
  processor: text,
  effectivedate: day,
});
export type PartnerDirectoryRow = z.output<typeof partnerDirectoryRow>;

/** GetPartners' flat account-group row (spec §3 partner account + group); group fields null without groups. */
export const partnerAccountGroupRow = z.object({
  ...accountFields,
  group_sf_id: text,
  groupname: text,
  groupid: text,
  association_number: text,
  rev_share: z.number().nullable(),
  bank: text,
  profile: text,
  processor: text,
  effectivedate: day,
});
export type PartnerAccountGroupRow = z.output<typeof partnerAccountGroupRow>;

/** One account with its groups: the table reading's detail card. */
export const partnerAccount = z.object({ ...accountFields, groups: z.array(partnerGroup) });
export type PartnerAccount = z.output<typeof partnerAccount>;

export const partnerSearchBody = z.strictObject({
  val: z.string({ error: 'val is the search text' }).max(100, 'The search text is too long'),
});

export const accountIdQuery = z.strictObject({
  accountid: requiredText('accountid', 40),
});

export const addGroupIdBody = z.strictObject({
  accountid: requiredText('Account', 40),
  bank: z.enum(GROUP_BANKS, { error: `Bank must be one of ${GROUP_BANKS.join(', ')}` }),
  effectivedate: isoDate,
  groupname: z
    .string({ error: 'Group name is required' })
    .trim()
    .min(1, 'Group name is required')
    .max(120, 'Group name is too long'),
  profile: z
    .enum(GROUP_PROFILES, { error: `Profile must be one of ${GROUP_PROFILES.join(', ')}` })
    .nullable()
    .optional(),
  revshare: revSharePercent,
});
export type AddGroupIdBody = z.input<typeof addGroupIdBody>;

/** The new group as the CRM and PayDesk now hold it. */
export const addGroupIdAnswer = messageAnswer.extend({
  group_sf_id: z.string(),
  groupid: z.string(),
  association_number: z.string(),
  groupname: z.string(),
  rev_share: z.number(),
  bank: z.string(),
  profile: z.string().nullable(),
  processor: z.string(),
  effectivedate: z.string(),
});
export type AddGroupIdAnswer = z.output<typeof addGroupIdAnswer>;

/** `group_id` is the group's Group ID (groupid in the rows). */
export const updateRevShareBody = z.strictObject({
  group_id: requiredText('group_id', 40),
  revshare: revSharePercent,
});
export const updateRevShareAnswer = messageAnswer.extend({
  group_id: z.string(),
  /** The stored fraction. */
  rev_share: z.number(),
});

export const lastGroupIdEntry = z.object({
  accountname: z.string(),
  group_id: z.string(),
  association_number: z.string().nullable(),
  /** PayDesk's addition: the modal's Group Name column. */
  groupname: z.string(),
});
/** Keyed by bank (CBCAL, Esquire, Chesapeake), newest allocation first. */
export const lastGroupIdsAnswer = z.record(z.string(), z.array(lastGroupIdEntry));
export type LastGroupIds = z.output<typeof lastGroupIdsAnswer>;

export const importStartAnswer = z.object({ uuid: z.string() });
export const importStatusBody = z.strictObject({ uuid: z.uuid({ error: 'Not an import id' }) });
export const RUNTIME_STATUSES = ['started', 'finished', 'stopped'] as const;
export type RuntimeStatus = (typeof RUNTIME_STATUSES)[number];
/**
 * The spec's import status: runtime_status from the background job's state (queued, running or waiting to
 * retry: started; done: finished; failed or cancelled: stopped), with its progress and, when it ended, its
 * result or error.
 */
export const importStatus = z.object({
  uuid: z.string(),
  runtime_status: z.enum(RUNTIME_STATUSES),
  /** 0–100, null before the job has reported. */
  percent: z.number().nullable(),
  message: z.string().nullable(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: timestamp,
  completedAt: timestamp.nullable(),
});
export type ImportStatus = z.output<typeof importStatus>;

export const revShareChange = z.object({
  old_rev_share: z.number().nullable(),
  new_rev_share: z.number(),
  changed_by: z.string().nullable(),
  changed_at: timestamp,
});
export type RevShareChange = z.output<typeof revShareChange>;
export const revShareHistoryQuery = z.strictObject({ group_id: requiredText('group_id', 40) });

/**
 * The export sheet and Import XLSX layout (spec §3 partner export sheet): one row per account, its group IDs
 * comma-joined, the account fields and the first effective date. Import updates the account fields of the
 * accounts in the file (and adds accounts it does not know); the group IDs must be the account's own and
 * the effective date is derived from the groups, so both are checked or ignored, never written.
 */
export const partnerImportColumns: readonly UploadColumn[] = [
  { header: 'accountid', label: 'Account ID', type: 'text', required: true },
  { header: 'accountname', label: 'Account Name', type: 'text', required: true },
  { header: 'groupids', label: 'Group IDs', type: 'text', required: false },
  { header: 'status', label: 'Status', type: 'text', required: true },
  { header: 'rm', label: 'RM', type: 'text', required: false },
  { header: 'recruiter', label: 'Recruiter', type: 'text', required: false },
  { header: 'isc', label: 'ISC', type: 'decimal', required: false },
  { header: 'liability', label: 'Liability', type: 'text', required: false },
  { header: 'datesigned', label: 'Date Signed', type: 'date', required: false },
  { header: 'fullname', label: 'Name', type: 'text', required: false },
  { header: 'processingemail', label: 'Email', type: 'text', required: false },
  { header: 'phone', label: 'Phone', type: 'text', required: false },
  { header: 'billingstreet', label: 'Address', type: 'text', required: false },
  { header: 'billingcity', label: 'City', type: 'text', required: false },
  { header: 'billingstate', label: 'State', type: 'text', required: false },
  { header: 'billingzip', label: 'Zip', type: 'text', required: false },
  { header: 'operationemail', label: 'Operations Email', type: 'text', required: false },
  { header: 'effectivedate', label: 'Effective Date', type: 'date', required: false },
];
export const PARTNER_EXPORT_FILE = 'Partners.xlsx';
export const PARTNER_EXPORT_SHEET = 'Partners';

/** "All" in the table reading's page sizes: the toolkit's largest page. */
export const PARTNERS_PAGE_ALL = 1000;

/** The table reading (spec §2.4): Account Name, Status, Name, RM; `accountid` for the detail card. */
export const partnersTable = {
  columns: [
    { id: 'accountname', label: 'Account Name', type: 'text', filter: 'text', sortable: true, pinned: true },
    {
      id: 'status',
      label: 'Status',
      type: 'text',
      filter: 'select',
      options: PARTNER_STATUSES,
      sortable: true,
    },
    { id: 'fullname', label: 'Name', type: 'text', filter: 'text', sortable: true },
    { id: 'rm', label: 'RM', type: 'text', filter: 'text', sortable: true },
    { id: 'accountid', label: 'Account ID', type: 'text', hidden: true },
  ],
  pageSizes: [15, 25, 50, PARTNERS_PAGE_ALL],
  defaultPageSize: 15,
  defaultSort: [{ id: 'accountname', desc: false }],
} as const satisfies TableDef;
export type PartnersColumn = (typeof partnersTable.columns)[number]['id'];
/** A table row: `status` is as shown (Active, Inactive or Dead). */
export type PartnersTableRow = Record<PartnersColumn, string | null>;

export const partnerEndpoints = {
  list: endpoint({
    method: 'POST',
    path: partnerPaths.list,
    summary: 'Partners: one row per account-group pair (the search reading, and the rows of the export)',
    output: z.array(partnerDirectoryRow),
  }),
  search: endpoint({
    method: 'POST',
    path: partnerPaths.search,
    summary:
      'Partners whose account name, name, RM, group name or group ID starts with the text (empty: all)',
    input: partnerSearchBody,
    output: z.array(partnerDirectoryRow),
  }),
  getPartners: endpoint({
    method: 'GET',
    path: partnerPaths.getPartners,
    summary: 'Partners: flat account-group rows with the group ID, association and rev share (a fraction)',
    output: z.array(partnerAccountGroupRow),
  }),
  addGroupId: endpoint({
    method: 'POST',
    path: partnerPaths.addGroupId,
    summary:
      'Adds a processing group: allocates the next group ID and association number of the bank and creates it in the CRM (partners_edit)',
    input: addGroupIdBody,
    output: addGroupIdAnswer,
  }),
  updateRevShare: endpoint({
    method: 'POST',
    path: partnerPaths.updateRevShare,
    summary: "Sets a group's rev share, entered as a percentage; kept in its history (partners_edit)",
    input: updateRevShareBody,
    output: updateRevShareAnswer,
  }),
  lastGroupIds: endpoint({
    method: 'GET',
    path: partnerPaths.lastGroupIds,
    summary: 'The latest allocated group IDs and association numbers, by bank (partners_edit)',
    output: lastGroupIdsAnswer,
  }),
  importCrm: endpoint({
    method: 'POST',
    path: partnerPaths.importCrm,
    summary: 'Starts the import of every partner account and group from the CRM, as a background job',
    output: importStartAnswer,
  }),
  importStatus: endpoint({
    method: 'POST',
    path: partnerPaths.importStatus,
    summary: 'The state of a partner import job: started, finished or stopped, with its progress',
    input: importStatusBody,
    output: z.array(importStatus),
  }),
  upload: endpoint({
    method: 'POST',
    path: partnerPaths.upload,
    summary:
      'Import XLSX: the export layout as an .xlsx body, or its rows as JSON; all or nothing (admin, sales_admin)',
    input: uploadJsonBody,
    output: importAnswer,
  }),
  export: endpoint({
    method: 'POST',
    path: partnerPaths.export,
    summary: "Export XLSX: Partners.xlsx, sheet 'Partners', one row per account",
    output: FILE_ANSWER,
  }),
  table: tableEndpoints('Partners', { query: partnerPaths.tableQuery, export: partnerPaths.tableExport }, {}),
  account: endpoint({
    method: 'GET',
    path: partnerPaths.account,
    summary: 'One partner account with its groups (the detail card)',
    input: accountIdQuery,
    output: partnerAccount,
  }),
  revShareHistory: endpoint({
    method: 'GET',
    path: partnerPaths.revShareHistory,
    summary: "A group's rev share changes, newest first (fractions)",
    input: revShareHistoryQuery,
    output: z.array(revShareChange),
  }),
};

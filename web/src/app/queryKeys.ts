import type { FinAverageBody, FinDataBody } from '@paydesk/domain/contracts/financial';
import type { ProcessingInfoBody } from '@paydesk/domain/contracts/processing';

/**
 * One key factory per area, each key under its area's `all`: queries take their keys from here, and a mutation
 * invalidates its area's `all` (or a narrower level of it), so a key is never spelled twice.
 */

/** Sales, Leaderboard and ISO Performance: one call and its body per key. */
export const salesKeys = {
  all: ['sales'] as const,
  call: (path: string, body: unknown = null) => [...salesKeys.all, path, body] as const,
  isoTable: (body: unknown) => [...salesKeys.all, 'isoTable', body] as const,
  isoPreview: (body: unknown) => [...salesKeys.all, 'isoPreview', body] as const,
};

/** Financial: its filter options, the averages and the monthly series. */
export const financialKeys = {
  all: ['financial'] as const,
  options: () => [...financialKeys.all, 'options'] as const,
  average: (body: FinAverageBody) => [...financialKeys.all, 'average', body] as const,
  data: (body: FinDataBody) => [...financialKeys.all, 'data', body] as const,
};

/** Users, Register, Audit log and Outbox. */
export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  isos: () => [...adminKeys.all, 'isos'] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
  auditTable: (body: object) => [...adminKeys.audit(), 'table', body] as const,
  auditPreview: (body: object) => [...adminKeys.audit(), 'preview', body] as const,
  outbox: () => [...adminKeys.all, 'outbox'] as const,
  outboxTable: (body: object) => [...adminKeys.outbox(), 'table', body] as const,
  outboxPreview: (body: object) => [...adminKeys.outbox(), 'preview', body] as const,
  outboxMessage: (id: number) => [...adminKeys.outbox(), 'message', id] as const,
};

/** Self Serve, Residual Self Serve and their saved reports. */
export const reportKeys = {
  all: ['reports'] as const,
  table: (table: string) => [...reportKeys.all, table] as const,
  page: (table: string, body: unknown) => [...reportKeys.table(table), 'page', body] as const,
  preview: (table: string, body: unknown) => [...reportKeys.table(table), 'preview', body] as const,
  savedNames: (table: string) => [...reportKeys.all, 'saved', table] as const,
};

/** Upload Data: each type's current rows. */
export const uploadKeys = {
  all: ['uploads'] as const,
  type: (type: string) => [...uploadKeys.all, type] as const,
  rows: (type: string, month: string | null) => [...uploadKeys.type(type), 'rows', { month }] as const,
  preview: (type: string, month: string | null) => [...uploadKeys.type(type), 'preview', { month }] as const,
};

/** The Jobs screen's table, and the status of one job that a screen follows. */
export const jobKeys = {
  all: ['jobs'] as const,
  table: (body: object) => [...jobKeys.all, 'table', body] as const,
  preview: (body: object) => [...jobKeys.all, 'preview', body] as const,
  status: (id: string) => [...jobKeys.all, 'status', id] as const,
};

/** Partners: the directory (by search text), the table reading, an account's card, rev share history, group IDs. */
export const partnerKeys = {
  all: ['partners'] as const,
  directory: (val: string) => [...partnerKeys.all, 'directory', { val }] as const,
  exportPreview: () => [...partnerKeys.all, 'exportPreview'] as const,
  table: (body: object) => [...partnerKeys.all, 'table', body] as const,
  tablePreview: (body: object) => [...partnerKeys.all, 'tablePreview', body] as const,
  account: (accountid: string) => [...partnerKeys.all, 'account', accountid] as const,
  revShareHistory: (groupId: string) => [...partnerKeys.all, 'revShareHistory', groupId] as const,
  lastGroupIds: () => [...partnerKeys.all, 'lastGroupIds'] as const,
  importStatus: (uuid: string) => [...partnerKeys.all, 'import', uuid] as const,
};

/** Processing dashboard and How to Export: a year's figures, activations, budgets, the user's subscriptions. */
export const processingKeys = {
  all: ['processing'] as const,
  info: (body: ProcessingInfoBody) => [...processingKeys.all, 'info', body] as const,
  activation: (dt: string) => [...processingKeys.all, 'activation', { dt }] as const,
  budgets: (year: number) => [...processingKeys.all, 'budgets', { year }] as const,
  subscriptions: () => [...processingKeys.all, 'subscriptions'] as const,
};

/** ACH returns: the table's pages (patched in place after an edit), a row's history, the return-rate panel. */
export const achKeys = {
  all: ['ach'] as const,
  pages: () => [...achKeys.all, 'page'] as const,
  page: (body: object) => [...achKeys.pages(), body] as const,
  preview: (body: object) => [...achKeys.all, 'preview', body] as const,
  history: (rowId: string) => [...achKeys.all, 'history', rowId] as const,
  returnRates: (level: string) => [...achKeys.all, 'returnRates', level] as const,
  savedNames: () => [...achKeys.all, 'saved'] as const,
};

/** ISO analytics: the partner list and the data for the chosen partners and months. */
export const isoAnalyticsKeys = {
  all: ['isoanalytics'] as const,
  options: () => [...isoAnalyticsKeys.all, 'options'] as const,
  data: (body: object) => [...isoAnalyticsKeys.all, 'data', body] as const,
};

/** Business Intelligence: the ISO list, and one ISO's transactions, income and MCCs. */
export const biKeys = {
  all: ['bi'] as const,
  information: () => [...biKeys.all, 'information'] as const,
  transactions: (body: object) => [...biKeys.all, 'transactions', body] as const,
  income: (body: object) => [...biKeys.all, 'income', body] as const,
  mcc: (groupIDs: readonly string[]) => [...biKeys.all, 'mcc', groupIDs] as const,
};

/**
 * PCI compliance: each table's pages and export preview, a month's billing run, the Config tab's lists (a save
 * invalidates `config`) and the filter sources an exception chooses values from.
 */
export const pciKeys = {
  all: ['pci'] as const,
  tables: () => [...pciKeys.all, 'table'] as const,
  table: (table: string) => [...pciKeys.tables(), table] as const,
  page: (table: string, body: object) => [...pciKeys.table(table), 'page', body] as const,
  preview: (table: string, body: object) => [...pciKeys.table(table), 'preview', body] as const,
  billingRun: (year: number, month: number) => [...pciKeys.all, 'billingRun', { year, month }] as const,
  partners: () => [...pciKeys.all, 'partners'] as const,
  config: () => [...pciKeys.all, 'config'] as const,
  configList: (list: string) => [...pciKeys.config(), list] as const,
  filterSource: (filterId: number) => [...pciKeys.all, 'filterSource', filterId] as const,
};

/**
 * Bonus & Clawback: a window's bonuses, extra bonuses and clawbacks, a row's matches, activation, the
 * specifications and the activity log. A mark or a note invalidates the rows; a specification change its
 * lists and the log.
 */
export const bonusKeys = {
  all: ['bonus'] as const,
  rows: () => [...bonusKeys.all, 'rows'] as const,
  bonuses: (bonusType: string, date: string) =>
    [...bonusKeys.rows(), 'bonuses', { bonusType, date }] as const,
  extra: (date: string) => [...bonusKeys.rows(), 'extra', { date }] as const,
  clawbacks: (date: string) => [...bonusKeys.rows(), 'clawbacks', { date }] as const,
  matches: (mids: readonly string[]) => [...bonusKeys.rows(), 'matches', { mids }] as const,
  activation: () => [...bonusKeys.rows(), 'activation'] as const,
  specs: () => [...bonusKeys.all, 'specs'] as const,
  spec: (list: string, body: object = {}) => [...bonusKeys.specs(), list, body] as const,
  isoList: () => [...bonusKeys.all, 'isoList'] as const,
  windows: () => [...bonusKeys.all, 'windows'] as const,
  equipmentList: () => [...bonusKeys.all, 'equipmentList'] as const,
  logs: () => [...bonusKeys.all, 'logs'] as const,
};

/** Leads: the CRM's leads, the approval cards, the underwriters, each lead's form, step, checks and approval. */
export const leadsKeys = {
  all: ['leads'] as const,
  list: () => [...leadsKeys.all, 'list'] as const,
  approvals: () => [...leadsKeys.all, 'approvals'] as const,
  underwriters: () => [...leadsKeys.all, 'underwriters'] as const,
  lead: (leadId: string) => [...leadsKeys.all, 'lead', leadId] as const,
  form: (leadId: string) => [...leadsKeys.lead(leadId), 'form'] as const,
  step: (leadId: string) => [...leadsKeys.lead(leadId), 'step'] as const,
  checks: (leadId: string) => [...leadsKeys.lead(leadId), 'checks'] as const,
  approval: (leadId: string) => [...leadsKeys.lead(leadId), 'approval'] as const,
  /** The public approval page's link (no session). */
  link: (token: string) => [...leadsKeys.all, 'link', token] as const,
};

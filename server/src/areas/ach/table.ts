import { type AchColumn, type AchEditableColumn, achTable } from '@paydesk/domain';
import { sql } from 'kysely';
import type { TableSource } from '../../platform/tableQuery';

/**
 * The ACH table (domain achTable is the whitelist). The derived columns are stored, kept true by the database
 * (classification, from the row) and by the edit call (Alert on the row; merchRejBal on the legal name's row of
 * ach_legal_names, joined by its key where a query reads it), so filtering and sorting by them uses indexes like
 * any other column.
 */
export const achSource: TableSource<AchColumn> = {
  def: achTable,
  expressions: {
    main_unique_key: 'r.id',
    historic: 'r.historic',
    FileCreationDATE: 'r.file_creation_date',
    IndividualIdentificationNumber: 'r.mid',
    DBAName: 'r.dba_name',
    LegalName: 'r.legal_name',
    GroupLevel1Name: 'r.iso_name',
    CompanyEntryDescription: 'r.company_entry_description',
    TransactionAmount: 'r.transaction_amount',
    AddendaRelated: 'r.addenda_related',
    classification: 'r.classification',
    rejRes: 'r.rej_res',
    resDate: 'r.res_date',
    lastProcDate: 'r.last_proc_date',
    rejDDA: 'r.rej_dda',
    comment: 'r.comment',
    usedRsv: 'r.used_rsv',
    usedRsvDate: 'r.used_rsv_date',
    reRan: 'r.re_ran',
    reRanDate: 'r.re_ran_date',
    sentToColl: 'r.sent_to_coll',
    writeOff: 'r.write_off',
    MerchantStatus: 'r.merchant_status',
    rsvHold: 'r.rsv_hold',
    rsvCeiling: 'r.rsv_ceiling',
    rsvBalance: 'r.rsv_balance',
    occurrence: 'r.occurrence',
    merchRejBal: 'ln.merch_rej_bal',
    Alert: 'r.alert_label',
    datetimeWorked: 'r.datetime_worked',
    workedBy: 'r.worked_by',
    EffectiveEntryDATE: 'r.effective_entry_date',
    OriginatingDFIIdentification: 'r.originating_dfi',
    version: 'r.version',
  },
  from: 'ach_returns r',
  lookup: {
    join: 'join ach_legal_names ln on ln.partner_id = r.partner_id and ln.legal_name = r.legal_name',
    columns: ['merchRejBal'],
    key: 'r.id',
    exists: {
      from: 'ach_legal_names ln',
      on: 'ln.partner_id = r.partner_id and ln.legal_name = r.legal_name',
    },
  },
  searchable: ['IndividualIdentificationNumber', 'DBAName', 'LegalName'],
  tiebreak: 'r.id desc',
  // Each searched column's prefix index holds the id, the totals and the usual sort columns
  // (2026_12_08_0010_ach_search_cover): a search is one index scan per column.
  searchIndexed: true,
  // Every ISO's totals, kept by the seed and the edit call: the screen's first page need not sum every row.
  unfiltered: sql<Record<string, string> & { n: number }>`select coalesce(sum(returns), 0)::int as n,
      coalesce(sum(transaction_amount), 0)::text as "TransactionAmount", coalesce(sum(used_rsv), 0)::text as "usedRsv",
      coalesce(sum(re_ran), 0)::text as "reRan", coalesce(sum(sent_to_coll), 0)::text as "sentToColl",
      coalesce(sum(write_off), 0)::text as "writeOff"
    from ach_totals`,
  // A page filtered only by the balance counts and sums legal names, one filtered only by the ISO name ISOs, one
  // filtered only by classification, Alert and resolution the groups of those (ach_groups, kept by triggers).
  rollups: [
    {
      from: 'ach_legal_names ln',
      expressions: { merchRejBal: 'ln.merch_rej_bal' },
      count: 'ln.returns',
      totals: {
        TransactionAmount: 'ln.transaction_amount',
        usedRsv: 'ln.used_rsv',
        reRan: 'ln.re_ran',
        sentToColl: 'ln.sent_to_coll',
        writeOff: 'ln.write_off',
      },
    },
    {
      from: 'ach_totals t',
      expressions: { GroupLevel1Name: 't.iso_name' },
      count: 't.returns',
      totals: {
        TransactionAmount: 't.transaction_amount',
        usedRsv: 't.used_rsv',
        reRan: 't.re_ran',
        sentToColl: 't.sent_to_coll',
        writeOff: 't.write_off',
      },
    },
    {
      from: 'ach_groups g',
      expressions: {
        classification: 'g.classification',
        Alert: 'g.alert_label',
        rejRes: "nullif(g.rej_res, '')",
      },
      count: 'g.returns',
      totals: {
        TransactionAmount: 'g.transaction_amount',
        usedRsv: 'g.used_rsv',
        reRan: 'g.re_ran',
        sentToColl: 'g.sent_to_coll',
        writeOff: 'g.write_off',
      },
    },
  ],
};

/** The SQL column of each editable column (a fixed map: the column name never comes from input). */
export const ACH_EDIT_SQL_COLUMNS: Record<AchEditableColumn, string> = {
  comment: 'comment',
  usedRsv: 'used_rsv',
  reRan: 're_ran',
  sentToColl: 'sent_to_coll',
  writeOff: 'write_off',
  rejRes: 'rej_res',
  resDate: 'res_date',
  usedRsvDate: 'used_rsv_date',
  reRanDate: 're_ran_date',
};

/**
 * The ACH table for internal staff: as achSource, and a page filtered only by return code and file date counts
 * and sums code-days (ach_code_days, every ISO's returns, kept by triggers) instead of every matching return.
 * ISO-bound users are not granted that table; their pages count their own ISO's returns (achSource).
 */
export const achStaffSource: TableSource<AchColumn> = {
  ...achSource,
  rollups: [
    ...(achSource.rollups ?? []),
    {
      from: 'ach_code_days c',
      expressions: { AddendaRelated: 'c.addenda_related', FileCreationDATE: 'c.file_creation_date' },
      count: 'c.returns',
      totals: {
        TransactionAmount: 'c.transaction_amount',
        usedRsv: 'c.used_rsv',
        reRan: 'c.re_ran',
        sentToColl: 'c.sent_to_coll',
        writeOff: 'c.write_off',
      },
    },
  ],
};

import { type ResidualColumn, residualTable, type SelfServeColumn, selfServeTable } from '@paydesk/domain';
import type { TableSource } from '../../platform/tableQuery';

/**
 * The summed columns' expressions. The month totals (migration 2026_11_27_0010_month_totals) name each summed
 * column as the rows do and are read under the rows' alias, so the rows' expressions read them too.
 */
function summedColumns<Id extends string>(
  def: { columns: readonly { id: Id; total?: boolean }[] },
  expressions: Record<Id, string>,
): Partial<Record<Id, string>> {
  return Object.fromEntries(
    def.columns.filter((c) => c.total).map((c) => [c.id, expressions[c.id]]),
  ) as Partial<Record<Id, string>>;
}

/**
 * Self Serve: one row per merchant open in the month, with the month's activity and income, read from the
 * pre-joined selfserve_rows (db/derived.ts) so a month is one table's index range.
 */
const selfServeExpressions: Record<SelfServeColumn, string> = {
  banknum: 's.banknum',
  groupname: 's.groupname',
  groupid: 's.groupid',
  mid: 's.mid',
  dba: 's.dba',
  legalname: 's.legalname',
  merchprofile: 's.merchprofile',
  highrisk: 's.highrisk',
  assocnum: 's.assocnum',
  sic: 's.sic',
  merchstatus: 's.merchstatus',
  email: 's.email',
  phone: 's.phone',
  cbemail: 's.cbemail',
  Address: 's.address',
  City: 's.city',
  State: 's.state',
  Zip: 's.zip',
  fund: 's.fund',
  activationd: 's.activationd',
  opend: 's.opend',
  closed: 's.closed',
  tx_amt: 's.tx_amt',
  tx_cnt: 's.tx_cnt',
  cb_amt: 's.cb_amt',
  cb_cnt: 's.cb_cnt',
  ref_amt: 's.ref_amt',
  ref_cnt: 's.ref_cnt',
  income: 's.income',
};

export const selfServeSource: TableSource<SelfServeColumn> = {
  def: selfServeTable,
  from: 'selfserve_rows s',
  expressions: selfServeExpressions,
  searchable: ['mid', 'dba', 'legalname', 'groupname'],
  tiebreak: 's.merchant_id',
  keyedPages: true,
  // A month without a filter or search counts and sums its kept totals per ISO (2026_11_27_0010_month_totals).
  rollups: [
    {
      from: 'selfserve_month_totals s',
      base: true,
      expressions: {},
      count: 's.n',
      totals: summedColumns(selfServeTable, selfServeExpressions),
    },
  ],
};

const residualExpressions: Record<ResidualColumn, string> = {
  YearMonth: "to_char(r.month, 'YYYY-MM')",
  MID: 'r.mid',
  DBA: 'r.dba',
  Processor: 'r.processor',
  Agent: 'r.agent',
  Office: 'r.office',
  PayoutSchedule: 'r.payout_schedule',
  PayoutTo: 'r.payout_to',
  Transactions: 'r.transactions',
  Volume: 'r.volume',
  Income: 'r.income',
  Gross: 'r.gross',
  Net: 'r.net',
  ACHCollectedGross: 'r.ach_collected_gross',
  ACHCollectedPayout: 'r.ach_collected_payout',
  ACHCollectedNet: 'r.ach_collected_net',
  ACHRejectedGross: 'r.ach_rejected_gross',
  ACHRejectedNet: 'r.ach_rejected_net',
  RefundsGross: 'r.refunds_gross',
  RefundsPayout: 'r.refunds_payout',
  RefundsNet: 'r.refunds_net',
  TotalGross: 'r.total_gross',
  TotalPayout: 'r.total_payout',
  TotalNet: 'r.total_net',
  Income1: 'r.income1',
  Expense: 'r.expense',
  ProfitLoss: 'r.profit_loss',
};

export const residualSource: TableSource<ResidualColumn> = {
  def: residualTable,
  from: 'residuals r',
  expressions: residualExpressions,
  searchable: ['MID', 'DBA', 'Agent'],
  tiebreak: 'r.id',
  keyedPages: true,
  // A month without a filter or search counts and sums its kept totals per ISO (2026_11_27_0010_month_totals).
  rollups: [
    {
      from: 'residual_month_totals r',
      base: true,
      expressions: {},
      count: 'r.n',
      totals: summedColumns(residualTable, residualExpressions),
    },
  ],
};

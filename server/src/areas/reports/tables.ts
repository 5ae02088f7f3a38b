import { type ResidualColumn, residualTable, type SelfServeColumn, selfServeTable } from '@paydesk/domain';
import type { TableSource } from '../../platform/tableQuery';

/**
 * Self Serve: one row per merchant open in the month, with the month's activity and income. Driven by
 * merchant_monthly (pre-aggregated from the daily rows), so a month is one index range.
 */
export const selfServeSource: TableSource<SelfServeColumn> = {
  def: selfServeTable,
  from: `merchant_monthly a
    join merchants m on m.id = a.merchant_id
    join partners p on p.id = m.partner_id
    left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month`,
  expressions: {
    banknum: 'm.sponsor_bank',
    groupname: 'p.account_name',
    groupid: 'm.group_id',
    mid: 'm.mid',
    dba: 'm.dba',
    legalname: 'm.legal_name',
    merchprofile: 'm.profile',
    highrisk: "case when m.profile = 'High Risk' then 'Y' else 'N' end",
    assocnum: 'm.association_number',
    sic: 'm.mcc',
    // Status and closing date as of the end of the month shown.
    merchstatus: "case when m.closed_on < (a.month + interval '1 month')::date then 'Closed' else 'Open' end",
    email: 'm.email',
    phone: 'm.phone',
    cbemail: 'm.cb_email',
    Address: 'm.address',
    City: 'm.city',
    State: 'm.state',
    Zip: 'm.zip',
    fund: 'm.funding',
    activationd: 'm.activated_on',
    opend: 'm.opened_on',
    closed: "case when m.closed_on < (a.month + interval '1 month')::date then m.closed_on end",
    tx_amt: 'a.volume',
    tx_cnt: 'a.transactions',
    cb_amt: 'a.chargeback_volume',
    cb_cnt: 'a.chargebacks',
    ref_amt: 'a.refund_volume',
    ref_cnt: 'a.refunds',
    income: 'coalesce(i.net, 0)',
  },
  searchable: ['mid', 'dba', 'legalname', 'groupname'],
  tiebreak: 'a.merchant_id',
};

export const residualSource: TableSource<ResidualColumn> = {
  def: residualTable,
  from: 'residuals r',
  expressions: {
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
  },
  searchable: ['MID', 'DBA', 'Agent'],
  tiebreak: 'r.id',
};

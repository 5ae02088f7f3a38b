import { sql } from 'kysely';
import type { Db } from './connect';

/**
 * Rebuilds selfserve_rows, the Self Serve report pre-joined: one row per merchant open in a month with the
 * merchant's attributes as of that month, its activity and its income. For one month and optionally only
 * some merchants (after an import), or everything (the seed and the migration's backfill).
 */
export async function refreshSelfServeRows(
  db: Db,
  month?: string,
  merchantIds?: readonly number[],
): Promise<void> {
  const conds = [];
  if (month) conds.push(sql`a.month = ${month}::date`);
  if (merchantIds && merchantIds.length > 0) conds.push(sql`a.merchant_id in (${sql.join(merchantIds)})`);
  const where = conds.length > 0 ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
  await sql`delete from selfserve_rows a ${where}`.execute(db);
  await sql`
    insert into selfserve_rows (month, merchant_id, partner_id, banknum, groupname, groupid, mid, dba, legalname,
      merchprofile, highrisk, assocnum, sic, merchstatus, email, phone, cbemail, address, city, state, zip, fund,
      activationd, opend, closed, tx_amt, tx_cnt, cb_amt, cb_cnt, ref_amt, ref_cnt, income)
    select a.month, a.merchant_id, m.partner_id, m.sponsor_bank, p.account_name, m.group_id, m.mid, m.dba, m.legal_name,
      m.profile, case when m.profile = 'High Risk' then 'Y' else 'N' end, m.association_number, m.mcc,
      case when m.closed_on < (a.month + interval '1 month')::date then 'Closed' else 'Open' end,
      m.email, m.phone, m.cb_email, m.address, m.city, m.state, m.zip, m.funding,
      m.activated_on, m.opened_on, case when m.closed_on < (a.month + interval '1 month')::date then m.closed_on end,
      a.volume, a.transactions, a.chargeback_volume, a.chargebacks, a.refund_volume, a.refunds, coalesce(i.net, 0)
    from merchant_monthly a
    join merchants m on m.id = a.merchant_id
    join partners p on p.id = m.partner_id
    left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
    ${where}
    order by a.month, a.merchant_id`.execute(db);
}

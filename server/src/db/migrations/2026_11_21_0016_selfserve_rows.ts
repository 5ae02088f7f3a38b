import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * Self Serve pre-joined, one row per merchant-month, so a month's page is one table's index range and its
 * count one scan: no join of ~50,000 merchant-months to merchants, partners and income per request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table selfserve_rows (
       month date not null,
       merchant_id integer not null references merchants (id),
       partner_id integer not null,
       banknum text not null, groupname text not null, groupid text not null, mid text not null, dba text not null,
       legalname text not null, merchprofile text not null, highrisk text not null, assocnum text, sic text not null,
       merchstatus text not null, email text, phone text, cbemail text, address text, city text, state text, zip text,
       fund text not null, activationd date, opend date not null, closed date,
       tx_amt numeric(14, 2) not null, tx_cnt integer not null, cb_amt numeric(12, 2) not null, cb_cnt integer not null,
       ref_amt numeric(12, 2) not null, ref_cnt integer not null, income numeric(12, 2) not null,
       primary key (month, merchant_id)
     )`,
    'create index selfserve_rows_volume on selfserve_rows (month, tx_amt desc)',
    'create index selfserve_rows_dba on selfserve_rows (month, lower(dba) text_pattern_ops)',
    'create index selfserve_rows_mid on selfserve_rows (month, mid text_pattern_ops)',
    'create index selfserve_rows_iso on selfserve_rows (month, lower(groupname) text_pattern_ops)',
  ]);
  await scopeToIso(db, 'selfserve_rows');
  // A database that already has activity gets its rows now, by this migration's own copy of the SQL.
  await run(db, [
    `insert into selfserve_rows (month, merchant_id, partner_id, banknum, groupname, groupid, mid, dba, legalname,
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
     order by a.month, a.merchant_id`,
  ]);
}

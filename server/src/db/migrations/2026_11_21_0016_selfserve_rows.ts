import type { Kysely } from 'kysely';
import type { Db } from '../connect';
import { refreshSelfServeRows } from '../selfServeRows';
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
  await refreshSelfServeRows(db as unknown as Db);
}

import {
  ADMINISTRATIVE_RETURN_CODES,
  RETURN_RATE_THRESHOLDS,
  returnRateWindow,
  UNAUTHORIZED_RETURN_CODES,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';

/**
 * The ACH rows' columns that depend on other rows (see the migration 2026_11_22_0011): the MID's reserve and
 * occurrence count, the legal name's MID count, its rejection balance (merchRejBal) and the Alert, by the rules
 * of domain/src/ach/classification.ts. With a legal name, only its rows (the edit call, after a change of an
 * amount); without, every row (the seed).
 */
export async function refreshAchDerived(db: Db, only?: { partnerId: number; legalName: string }) {
  if (only) {
    await sql`update ach_returns r
      set merch_rej_bal = g.total,
          alert = g.total < 0 and coalesce(r.rsv_balance, 0) > 0 and r.legal_name_mids > 1
      from (select coalesce(sum(row_balance), 0) as total from ach_returns
            where partner_id = ${only.partnerId} and legal_name = ${only.legalName}) g
      where r.partner_id = ${only.partnerId} and r.legal_name = ${only.legalName}
        and (r.merch_rej_bal <> g.total
             or r.alert <> (g.total < 0 and coalesce(r.rsv_balance, 0) > 0 and r.legal_name_mids > 1))`.execute(
      db,
    );
    return;
  }
  await sql`update ach_returns r
    set rsv_hold = v.rsv_hold, rsv_ceiling = v.rsv_ceiling, rsv_balance = v.rsv_balance
    from ach_reserves v where v.merchant_id = r.merchant_id`.execute(db);
  await sql`update ach_returns r set occurrence = o.n
    from (select merchant_id, count(*)::int as n from ach_returns where addenda_related like 'R%' group by merchant_id) o
    where o.merchant_id = r.merchant_id`.execute(db);
  await sql`update ach_returns r set legal_name_mids = l.n
    from (select partner_id, legal_name, count(*)::int as n from merchants group by partner_id, legal_name) l
    where l.partner_id = r.partner_id and l.legal_name = r.legal_name`.execute(db);
  await sql`update ach_returns r
    set merch_rej_bal = g.total,
        alert = g.total < 0 and coalesce(r.rsv_balance, 0) > 0 and r.legal_name_mids > 1
    from (select partner_id, legal_name, sum(row_balance) as total from ach_returns group by partner_id, legal_name) g
    where g.partner_id = r.partner_id and g.legal_name = r.legal_name`.execute(db);
}

const codes = (list: readonly string[]) => sql.join(list.map((c) => sql.lit(c)));

/**
 * Each merchant's debit entries and returns (R codes only, by the returned entry's date) over the 60 days ending
 * `asOf`: the one definition of what the return rates divide, read by the daily rollup and by ISO-bound callers.
 */
export function merchantReturnCounts(asOf: string): RawBuilder<unknown> {
  const { from, to } = returnRateWindow(asOf);
  return sql`(select merchant_id, partner_id, sum(entries)::int as entries, sum(returns)::int as returns,
      sum(unauthorized)::int as unauthorized, sum(administrative)::int as administrative
    from (
      select merchant_id, partner_id, entries, 0 as returns, 0 as unauthorized, 0 as administrative
      from ach_debit_entries where day between ${from}::date and ${to}::date
      union all
      select merchant_id, partner_id, 0, count(*),
             count(*) filter (where addenda_related in (${codes(UNAUTHORIZED_RETURN_CODES)})),
             count(*) filter (where addenda_related in (${codes(ADMINISTRATIVE_RETURN_CODES)}))
      from ach_returns
      where effective_entry_date between ${from}::date and ${to}::date and addenda_related ~ '^R[0-9][0-9]$'
      group by merchant_id, partner_id
    ) x group by merchant_id, partner_id)`;
}

/** Rebuilds the rollup of return counts for `asOf` (as the table owner: every ISO's merchants). */
export async function refreshRateWindow(db: Db, asOf: string) {
  await sql`delete from ach_rate_window`.execute(db);
  await sql`insert into ach_rate_window (merchant_id, partner_id, as_of, entries, returns, unauthorized, administrative)
    select merchant_id, partner_id, ${asOf}::date, entries, returns, unauthorized, administrative
    from ${merchantReturnCounts(asOf)} c`.execute(db);
}

/**
 * Over a threshold, in whole numbers so the boundary is exact: rate > threshold ⇔ count × 1000 > entries ×
 * threshold × 1000 (the thresholds are whole tenths of a percent).
 */
const overThreshold = (count: RawBuilder<unknown>, per1000: number) =>
  sql`(${count}::bigint * 1000 > ${sql.lit(Math.round(per1000 * 1000))} * entries::bigint and entries > 0)`;

export const overAny = sql`(${overThreshold(sql`unauthorized`, RETURN_RATE_THRESHOLDS.unauthorized)}
  or ${overThreshold(sql`administrative`, RETURN_RATE_THRESHOLDS.administrative)}
  or ${overThreshold(sql`returns`, RETURN_RATE_THRESHOLDS.overall)})`;

/** The worst rate ÷ its threshold (above 1: over), for ordering the most severe first. */
export const severity = sql`case when entries > 0 then greatest(
    unauthorized::float8 / entries / ${sql.lit(RETURN_RATE_THRESHOLDS.unauthorized)},
    administrative::float8 / entries / ${sql.lit(RETURN_RATE_THRESHOLDS.administrative)},
    returns::float8 / entries / ${sql.lit(RETURN_RATE_THRESHOLDS.overall)}) else 0 end`;

import {
  ACH_EDIT_KINDS,
  ACH_LIST_LIMIT,
  type AchColumn,
  type AchEditableColumn,
  ADMINISTRATIVE_RETURN_CODES,
  type ReturnRateLevel,
  returnRates,
  returnRateWindow,
  UNAUTHORIZED_RETURN_CODES,
} from '@paydesk/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { queryPage } from '../../platform/tableQuery';
import { ACH_EDIT_SQL_COLUMNS, achSource } from './table';

/** Each legal name's balance, row count and money totals, from its return rows. */
const legalNameSums = sql`select partner_id, legal_name, sum(row_balance) as merch_rej_bal, count(*)::int as returns,
    sum(transaction_amount) as transaction_amount, coalesce(sum(used_rsv), 0) as used_rsv,
    coalesce(sum(re_ran), 0) as re_ran, coalesce(sum(sent_to_coll), 0) as sent_to_coll,
    coalesce(sum(write_off), 0) as write_off
  from ach_returns`;

/** The Alert rule of domain/src/ach/classification.ts over a return row `r` and its legal name's balance. */
const alertRule = (balance: RawBuilder<unknown>) =>
  sql`(${balance} < 0 and coalesce(r.rsv_balance, 0) > 0 and r.legal_name_mids > 1)`;

/**
 * The ACH rows' columns that depend on other rows (see the migrations 2026_11_22_0040 and 2026_11_24_0005): the
 * MID's reserve and occurrence count, the legal name's MID count, its row of ach_legal_names (the rejection
 * balance, merchRejBal, with its count and totals) and the Alert, by the rules of domain/src/ach/classification.ts.
 * With a legal name, only its rows (to put one back exactly); without, every row (the seed).
 */
export async function refreshAchDerived(db: Db, only?: { partnerId: number; legalName: string }) {
  if (only) {
    await sql`delete from ach_legal_names where partner_id = ${only.partnerId} and legal_name = ${only.legalName}`.execute(
      db,
    );
    await sql`insert into ach_legal_names (partner_id, legal_name, merch_rej_bal, returns, transaction_amount,
        used_rsv, re_ran, sent_to_coll, write_off)
      ${legalNameSums} where partner_id = ${only.partnerId} and legal_name = ${only.legalName}
      group by partner_id, legal_name`.execute(db);
    await sql`update ach_returns r set alert = ${alertRule(sql`ln.merch_rej_bal`)}
      from ach_legal_names ln
      where ln.partner_id = r.partner_id and ln.legal_name = r.legal_name
        and r.partner_id = ${only.partnerId} and r.legal_name = ${only.legalName}
        and r.alert <> ${alertRule(sql`ln.merch_rej_bal`)}`.execute(db);
    return;
  }
  await sql`delete from ach_legal_names`.execute(db);
  await sql`insert into ach_legal_names (partner_id, legal_name, merch_rej_bal, returns, transaction_amount, used_rsv,
      re_ran, sent_to_coll, write_off)
    ${legalNameSums} group by partner_id, legal_name`.execute(db);
  // One pass over every row: each index of the table is rewritten once, not once per column.
  await sql`update ach_returns r
    set rsv_hold = x.rsv_hold, rsv_ceiling = x.rsv_ceiling, rsv_balance = x.rsv_balance, occurrence = x.occurrence,
        legal_name_mids = x.mids,
        alert = x.total < 0 and coalesce(x.rsv_balance, 0) > 0 and x.mids > 1
    from (
      select a.id, v.rsv_hold, v.rsv_ceiling, v.rsv_balance, o.n as occurrence, coalesce(l.n, 1) as mids,
             g.merch_rej_bal as total
      from ach_returns a
      join (select merchant_id, count(*) filter (where addenda_related like 'R%')::int as n
            from ach_returns group by merchant_id) o on o.merchant_id = a.merchant_id
      join ach_legal_names g on g.partner_id = a.partner_id and g.legal_name = a.legal_name
      left join ach_reserves v on v.merchant_id = a.merchant_id
      left join (select partner_id, legal_name, count(*)::int as n from merchants group by partner_id, legal_name) l
        on l.partner_id = a.partner_id and l.legal_name = a.legal_name
    ) x
    where x.id = r.id`.execute(db);
  await sql`delete from ach_totals`.execute(db);
  await sql`insert into ach_totals (partner_id, iso_name, returns, transaction_amount, used_rsv, re_ran, sent_to_coll,
      write_off)
    select partner_id, coalesce(iso_name, ''), count(*), sum(transaction_amount), coalesce(sum(used_rsv), 0),
           coalesce(sum(re_ran), 0), coalesce(sum(sent_to_coll), 0), coalesce(sum(write_off), 0)
    from ach_returns group by partner_id, coalesce(iso_name, '')`.execute(db);
}

const codes = (list: readonly string[]) => sql.join(list.map((c) => sql.lit(c)));

/**
 * Each merchant's debit entries and returns (R codes only, by the returned entry's date) over the 60 days ending
 * `asOf`: the one definition of what the return rates divide (the rollup below is made from it).
 */
function merchantReturnCounts(asOf: string): RawBuilder<unknown> {
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

/** Rebuilds the rollups of return counts for `asOf`, per merchant and per ISO (as the table owner: every ISO's merchants). */
export async function refreshRateWindow(db: Db, asOf: string) {
  await sql`delete from ach_rate_window`.execute(db);
  await sql`insert into ach_rate_window (merchant_id, partner_id, as_of, entries, returns, unauthorized, administrative)
    select merchant_id, partner_id, ${asOf}::date, entries, returns, unauthorized, administrative
    from ${merchantReturnCounts(asOf)} c`.execute(db);
  await sql`delete from ach_rate_window_iso`.execute(db);
  await sql`insert into ach_rate_window_iso
      (partner_id, as_of, entries, returns, unauthorized, administrative, merchants, merchants_over)
    select partner_id, ${asOf}::date, sum(entries), sum(returns), sum(unauthorized), sum(administrative),
           count(*) filter (where entries > 0 or returns > 0), count(*) filter (where over)
    from ach_rate_window group by partner_id`.execute(db);
}

// ---------------------------------------------------------------- the calls' queries

/** A table row with its Date values (datetimeWorked) as ISO text, as the edit call answers it. */
function plainRow(row: Record<string, unknown>): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const [k, v] of Object.entries(row))
    out[k] = v instanceof Date ? v.toISOString() : (v as string | number | null);
  return out;
}

/** One ACH row as the table shows it (derived columns included), or undefined. */
export async function achTableRow(db: Db, id: number) {
  const page = await queryPage<AchColumn, Record<string, unknown>>(
    db,
    achSource,
    { filters: [], sort: [], search: '', page: 1 },
    [sql`r.id = ${id}`],
  );
  const row = page.rows[0];
  return row ? plainRow(row) : undefined;
}

export interface AchEdit {
  id: number;
  historic: boolean;
  column: AchEditableColumn;
  /** The value as parseAchEdit made it: decimal text, YYYY-MM-DD, a resolution, a comment, or null. */
  value: string | null;
  /** The row's version as the editor loaded it; undefined when the client did not send one. */
  version: number | undefined;
  user: { id: number; email: string };
}

export type AchEditOutcome =
  | { kind: 'not_found' }
  | { kind: 'stale'; current: number }
  | { kind: 'unchanged'; version: number }
  | { kind: 'changed'; oldValue: string | null; version: number };

/**
 * Applies one edit: the row is locked first, so two editors of the same row are serialised and the second sees
 * the first's version. A money change moves the legal name's rejection balance and totals (one row of
 * ach_legal_names, locked by the update, so edits of two rows of one legal name add up) and the ISO's totals;
 * when the balance crosses zero, the Alert of the legal name's rows is recomputed, all in the same transaction.
 */
export async function applyAchEdit(db: Db, edit: AchEdit): Promise<AchEditOutcome> {
  const column = sql.ref(ACH_EDIT_SQL_COLUMNS[edit.column]);
  const current = await sql<{
    version: number;
    partner_id: number;
    legal_name: string;
    iso_name: string;
    old_value: string | null;
  }>`select version, partner_id, legal_name, coalesce(iso_name, '') as iso_name, ${column}::text as old_value
     from ach_returns
     where id = ${edit.id} and historic = ${edit.historic ? 1 : 0} for update`.execute(db);
  const row = current.rows[0];
  if (!row) return { kind: 'not_found' };
  if (edit.version !== undefined && edit.version !== row.version)
    return { kind: 'stale', current: row.version };
  if (row.old_value === edit.value) return { kind: 'unchanged', version: row.version };

  await sql`update ach_returns
    set ${column} = ${edit.value}, worked_by = ${edit.user.email}, datetime_worked = now(), version = version + 1
    where id = ${edit.id}`.execute(db);
  await db
    .insertInto('ach_history')
    .values({
      ach_return_id: edit.id,
      partner_id: row.partner_id,
      column_name: edit.column,
      old_value: row.old_value,
      new_value: edit.value,
      changed_by_user_id: edit.user.id,
      changed_by: edit.user.email,
    })
    .execute();
  if (ACH_EDIT_KINDS[edit.column] === 'money') {
    const delta = sql`(coalesce(${edit.value}::numeric, 0) - coalesce(${row.old_value}::numeric, 0))`;
    const moved = await sql<{ crossed: boolean }>`update ach_legal_names
      set merch_rej_bal = merch_rej_bal + ${delta}, ${column} = ${column} + ${delta}
      where partner_id = ${row.partner_id} and legal_name = ${row.legal_name}
      returning (merch_rej_bal < 0) <> (merch_rej_bal - ${delta} < 0) as crossed`.execute(db);
    if (moved.rows[0]?.crossed !== false) {
      // A missing row (none should be) is rebuilt from the returns; a crossing of zero moves the Alert.
      await refreshAchDerived(db, { partnerId: row.partner_id, legalName: row.legal_name });
    }
    await sql`update ach_totals set ${column} = ${column} + ${delta}
      where partner_id = ${row.partner_id} and iso_name = ${row.iso_name}`.execute(db);
  }
  return { kind: 'changed', oldValue: row.old_value, version: row.version + 1 };
}

/** A row's changes, newest first; undefined when the row does not exist (or is not the caller's ISO's). */
export async function achHistory(db: Db, id: number, historic: boolean) {
  const exists = await db
    .selectFrom('ach_returns')
    .select('id')
    .where('id', '=', id)
    .where('historic', '=', historic ? 1 : 0)
    .executeTakeFirst();
  if (!exists) return undefined;
  const rows = await db
    .selectFrom('ach_history')
    .select(['column_name', 'old_value', 'new_value', 'changed_by', 'changed_at'])
    .where('ach_return_id', '=', id)
    .orderBy('changed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    column: r.column_name,
    oldValue: r.old_value,
    newValue: r.new_value,
    changedBy: r.changed_by,
    changedAt: r.changed_at,
  }));
}

/**
 * The spec's /api/ach: the newest rejects (at most ACH_LIST_LIMIT), the reserve of each of their MIDs and each
 * MID's occurrence (its R-coded returns, every one of them, not only those listed).
 */
export async function achList(db: Db) {
  const rejects = await db
    .selectFrom('ach_returns')
    .select([
      'id as main_unique_key',
      'historic',
      'file_creation_date as FileCreationDATE',
      'mid as IndividualIdentificationNumber',
      'dba_name as DBAName',
      'legal_name as LegalName',
      'iso_name as GroupLevel1Name',
      'company_entry_description as CompanyEntryDescription',
      'transaction_amount as TransactionAmount',
      'addenda_related as AddendaRelated',
      'rej_res as rejRes',
      'res_date as resDate',
      'last_proc_date as lastProcDate',
      'rej_dda as rejDDA',
      'comment',
      'used_rsv as usedRsv',
      'used_rsv_date as usedRsvDate',
      're_ran as reRan',
      're_ran_date as reRanDate',
      'sent_to_coll as sentToColl',
      'write_off as writeOff',
      'merchant_status as MerchantStatus',
      'datetime_worked as datetimeWorked',
      'worked_by as workedBy',
      'effective_entry_date as EffectiveEntryDATE',
      'originating_dfi as OriginatingDFIIdentification',
      'version',
    ])
    .orderBy('file_creation_date', (o) => o.desc().nullsLast())
    .orderBy('id', 'desc')
    .limit(ACH_LIST_LIMIT + 1)
    .execute();
  const truncated = rejects.length > ACH_LIST_LIMIT;
  if (truncated) rejects.pop();
  const mids = [...new Set(rejects.map((r) => r.IndividualIdentificationNumber))];
  if (mids.length === 0) return { rejects, reserves: [], occurrence: [], truncated };
  const reserves = await db
    .selectFrom('ach_reserves')
    .select([
      'mid as IndividualIdentificationNumber',
      sql<string>`rsv_balance::text`.as('rsvBalance'),
      sql<string>`rsv_hold::text`.as('rsvHold'),
      sql<string>`rsv_ceiling::text`.as('rsvCeiling'),
    ])
    .where('mid', 'in', mids)
    .orderBy('mid')
    .execute();
  const occurrence = await db
    .selectFrom('ach_returns')
    .select(['mid as IndividualIdentificationNumber', sql<number>`count(*)::int`.as('occurrence')])
    .where('mid', 'in', mids)
    .where('addenda_related', 'like', 'R%')
    .groupBy('mid')
    .orderBy('mid')
    .execute();
  return { rejects, reserves, occurrence, truncated };
}

/**
 * The return-rate panel: each merchant's (or ISO's) counts over the 60 days of the rollup (ach_rate_window), the
 * rates and thresholds by the domain's rules, those over a threshold first (the most severe first), then the
 * highest overall rate. Under an ISO scope the rollup holds only that ISO's merchants.
 */
export async function returnRatesPanel(db: Db, level: ReturnRateLevel, limit: number) {
  // Every row of both rollups has the day they were rebuilt for; the ISOs' rollup is the smaller.
  const asOf = await db
    .selectFrom('ach_rate_window_iso')
    .select(sql<string>`max(as_of)::text`.as('as_of'))
    .executeTakeFirst();
  const window = returnRateWindow(asOf?.as_of ?? new Date().toISOString().slice(0, 10));
  const ranked =
    level === 'merchant'
      ? // Each merchant's rank is kept on its rollup row (migration 2026_11_23_0006): the first rows come off an index.
        sql`select w.merchant_id::text as key, m.mid, m.dba, p.account_name as iso, w.entries, w.returns,
                   w.unauthorized, w.administrative
            from ach_rate_window w join merchants m on m.id = w.merchant_id join partners p on p.id = w.partner_id
            where w.entries > 0 or w.returns > 0
            order by w.over desc, w.severity desc, w.overall desc, w.merchant_id
            limit ${limit}`
      : // Each ISO's sums and rank are kept too (migration 2026_11_28_0010): a thousand rows, not every merchant's.
        sql`select w.partner_id::text as key, null::text as mid, null::text as dba, p.account_name as iso,
                   w.entries, w.returns, w.unauthorized, w.administrative
            from ach_rate_window_iso w join partners p on p.id = w.partner_id
            where w.entries > 0 or w.returns > 0
            order by w.over desc, w.severity desc, w.overall desc, p.account_name, w.partner_id::text
            limit ${limit}`;
  const { rows } = await sql<{
    key: string;
    mid: string | null;
    dba: string | null;
    iso: string;
    entries: number;
    returns: number;
    unauthorized: number;
    administrative: number;
  }>`${ranked}`.execute(db);
  const summary =
    level === 'merchant'
      ? await sql<{ over: number; total: number }>`select coalesce(sum(merchants_over), 0)::int as over,
          coalesce(sum(merchants), 0)::int as total from ach_rate_window_iso`.execute(db)
      : await sql<{ over: number; total: number }>`select count(*) filter (where over)::int as over,
          count(*)::int as total from ach_rate_window_iso where entries > 0 or returns > 0`.execute(db);
  return {
    from: window.from,
    to: window.to,
    level,
    rows: rows.map((r) => ({
      // The click-through filters the table by MID (merchant) or ISO name (ISO).
      key: level === 'merchant' ? (r.mid ?? r.key) : r.iso,
      mid: r.mid,
      dba: r.dba,
      iso: r.iso,
      entries: r.entries,
      returns: r.returns,
      unauthorized: r.unauthorized,
      administrative: r.administrative,
      ...returnRates(r),
    })),
    overCount: summary.rows[0]?.over ?? 0,
    total: summary.rows[0]?.total ?? 0,
  };
}

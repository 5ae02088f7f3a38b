import { type RawBuilder, sql } from 'kysely';
import { badRequest } from '../platform/errors';
import type { Db } from './connect';
import { WRITE_QUEUE_LOCK } from './migrations/helpers';

/**
 * Derived data: tables that hold answers computed from the records, so screens read them instead of the raw
 * rows. This module is the only writer of their derived rows; an area that changes a record calls
 * `refreshDerived(db, change)` in the same transaction, and the seed calls `rebuildAll(db)`.
 */

/** Records that derived data may be computed from. An area names the one it changed. */
export const SOURCE_TABLES = [
  'merchant_daily',
  'merchant_monthly',
  'merchant_income',
  'merchants',
  'partners',
  'groups',
  'residuals',
  'adjustments',
] as const;
export type SourceTable = (typeof SOURCE_TABLES)[number];

interface DerivedTable {
  /** The key its rows are partitioned by. */
  rowPer: readonly string[];
  sources: readonly SourceTable[];
  /**
   * How a change reaches it. Every change is resolved to the merchant-months it touches; 'rebuild' deletes
   * and re-inserts their rows, 'difference' adds their new contribution less their last one to its sums.
   */
  refresh: 'rebuild' | 'difference';
}

/**
 * What each derived table is computed from. A change of a table that no derived table lists (groups,
 * residuals, adjustments today) refreshes nothing, but areas still report it, so that a derived table
 * added later over those records is kept in step by adding it here.
 *
 * - merchant_monthly: inside the daily window a merchant-month is the sum of its days. Months before the
 *   window, and months imported by Self Serve, are records; a change of a merchant's days re-sums that
 *   merchant-month (the later write wins).
 * - selfserve_rows: one row per merchant-month of merchant_monthly, with the merchant's fields, its ISO's
 *   name and the month's income (net).
 * - activity_rollup: a month's merchant-months summed by one financial-dashboard dimension (profile, bank,
 *   open month, open year, MCC, ISO) at a time, and in total.
 * - processing_daily: a day's merchant-days summed per ISO, and in total (partner_id 0), for the processing
 *   dashboard. A change rebuilds the ISO-days it reaches (the days named, or every day of a changed merchant's
 *   months), for the merchant's ISO now and the one it was last counted under, then those days' totals.
 * - deal_income: a merchant's income over its whole history (net, payouts) and its last month of income, under
 *   its ISO now, for the ISO analytics stats (docs/bi.md). A change rebuilds the merchants it reaches.
 *
 * - bi_group_daily, bi_group_monthly, bi_group_income: a partner group's activity per day and month (in total
 *   and per profile) and its income per month, for the executive ISO calls (docs/bi.md), under the merchants'
 *   groups now. A change rebuilds the group-days and group-months it reaches, for the merchant's group now and
 *   the one it was moved from (a 'merchants' change names it).
 * - bi_group_deals, bi_group_states: a group's deals per approval month (count, first, last, deal_income sums)
 *   and per state, with the closing days of the closed ones so that "open today" needs no refresh as days
 *   pass, for ISO analytics; bi_group_totals: a group's deals of all its months, added up from bi_group_deals,
 *   with the months they span, its approvals per month (the ISO analytics graph's row) and its stats' fields as
 *   JSON text (the stats' row of a group's whole history, every closing counted as past); bi_group_openings: a
 *   group's merchants approved and closed per day, whose running sum is its open merchants on any day. A change
 *   rebuilds the whole groups it reaches (after deal_income).
 * - bi_iso_info: an ISO's deals, deal ages and bank and profile counts (GetAllInformation) as of a day (as_of):
 *   ages and "open" depend on the day, so a row is good for the day it was made. A change rebuilds the ISOs of the
 *   groups it reaches, as of today; the bi.iso-info job rebuilds every ISO once a day, and a reader that sees a
 *   row of an earlier day counts the merchants instead (areas/bi/queries.ts).
 *
 * Income payouts are not derived: they are recorded with the rev share in force when the income was
 * recorded, and a later rev-share edit does not rewrite payouts already made.
 */
export const DERIVED_TABLES = {
  merchant_monthly: { rowPer: ['merchant', 'month'], sources: ['merchant_daily'], refresh: 'rebuild' },
  selfserve_rows: {
    rowPer: ['merchant', 'month'],
    sources: ['merchant_monthly', 'merchant_income', 'merchants', 'partners'],
    refresh: 'rebuild',
  },
  activity_rollup: {
    rowPer: ['month', 'dimension', 'value'],
    sources: ['merchant_monthly', 'merchant_income', 'merchants'],
    refresh: 'difference',
  },
  processing_daily: {
    rowPer: ['day', 'partner'],
    sources: ['merchant_daily', 'merchants'],
    refresh: 'rebuild',
  },
  deal_income: { rowPer: ['merchant'], sources: ['merchant_income', 'merchants'], refresh: 'rebuild' },
  bi_group_daily: { rowPer: ['group', 'day'], sources: ['merchant_daily', 'merchants'], refresh: 'rebuild' },
  bi_group_monthly: {
    rowPer: ['group', 'month'],
    sources: ['merchant_monthly', 'merchants'],
    refresh: 'rebuild',
  },
  bi_group_income: {
    rowPer: ['group', 'month'],
    sources: ['merchant_income', 'merchants'],
    refresh: 'rebuild',
  },
  bi_group_deals: {
    rowPer: ['group', 'month'],
    sources: ['merchant_income', 'merchants'],
    refresh: 'rebuild',
  },
  bi_group_totals: {
    rowPer: ['group'],
    sources: ['merchant_income', 'merchants'],
    refresh: 'rebuild',
  },
  bi_group_states: { rowPer: ['group', 'state'], sources: ['merchants'], refresh: 'rebuild' },
  bi_group_openings: { rowPer: ['group', 'day'], sources: ['merchants'], refresh: 'rebuild' },
  bi_iso_info: { rowPer: ['partner'], sources: ['merchants'], refresh: 'rebuild' },
} as const satisfies Record<string, DerivedTable>;

/**
 * Tables that copy a merchant's ISO (partner_id) onto its rows so that row-level security can scope them;
 * moving a merchant to another ISO moves them (selfserve_rows and activity_rollup follow by a refresh).
 */
export const MERCHANT_ISO_COPIES = [
  'merchant_daily',
  'merchant_monthly',
  'merchant_income',
  'residuals',
  'adjustments',
  'applications',
] as const;

/** What an area changed. Each kind names its records by the keys the derived tables are partitioned by. */
export type SourceChange =
  /** Daily activity of these days, of these merchants (every merchant when omitted). */
  | { table: 'merchant_daily'; days: readonly string[]; merchantIds?: readonly number[] }
  /** Monthly activity or income of these months (first days), of these merchants (every merchant when omitted). */
  | {
      table: 'merchant_monthly' | 'merchant_income';
      months: readonly string[];
      merchantIds?: readonly number[];
    }
  /**
   * Records edited in place, by id: any field, including a merchant's ISO or group; a merchant moved to
   * another group names the groups it left (formerGroups), whose rollups it leaves.
   */
  | { table: 'merchants'; ids: readonly number[]; formerGroups?: readonly string[] }
  | { table: 'partners'; ids: readonly number[] }
  /** Records no derived table reads today. */
  | { table: 'groups' | 'residuals' | 'adjustments' };

const ints = (xs: readonly number[]) => sql`${[...xs]}::int[]`;
const dates = (xs: readonly string[]) => sql`${[...xs]}::date[]`;

/** The derived tables fed, directly or through another derived table, by a source. */
function dependents(source: SourceTable | keyof typeof DERIVED_TABLES): Set<keyof typeof DERIVED_TABLES> {
  const out = new Set<keyof typeof DERIVED_TABLES>();
  for (const [name, def] of Object.entries(DERIVED_TABLES) as [keyof typeof DERIVED_TABLES, DerivedTable][]) {
    if (def.sources.includes(source as SourceTable)) {
      out.add(name);
      for (const d of dependents(name)) out.add(d);
    }
  }
  return out;
}

/**
 * A refresh reads and rewrites every ISO's rows. Under the ISO role row-level security would make it quietly
 * partial (and the rollup is not writable at all), so it refuses instead: derived data is refreshed only
 * from staff requests, the seed and scripts, which run as the tables' owner.
 *
 * Then it waits for any other refresh to commit: the rollup subtracts what it last counted, and two
 * refreshes of the same merchant-month at once would both subtract it. The callers' transactions are
 * READ COMMITTED (the default), so the statements after the lock see what the one before committed. It is the
 * lock every writer of the sources already took at its first write (migration 2026_12_15_0010, the write queue),
 * so a caller that wrote first holds it already.
 */
async function beginRefresh(db: Db): Promise<void> {
  const tables = [...SOURCE_TABLES, ...Object.keys(DERIVED_TABLES), ...MERCHANT_ISO_COPIES];
  const { rows } = await sql<{ scoped: boolean }>`
    select coalesce(bool_or(row_security_active(t)), false) as scoped from unnest(${tables}::text[]) t`.execute(
    db,
  );
  if (rows[0]?.scoped) {
    throw new Error('Derived data can only be refreshed outside ISO scoping (a staff request or a script)');
  }
  await sql`select pg_advisory_xact_lock(${WRITE_QUEUE_LOCK}::bigint)`.execute(db);
}

async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * Brings every derived table in step with the changes, touching only the merchant-months they reach (see
 * DERIVED_TABLES for how each table follows), in the caller's transaction or in one of its own. Call it
 * after the change, in the same transaction. A change that names no rows is a no-op.
 */
export async function refreshDerived(db: Db, ...changes: readonly SourceChange[]): Promise<void> {
  const touching = changes.filter((c) => names(c) && dependents(c.table).size > 0);
  if (touching.length === 0) return;
  await inTransaction(db, async (trx) => {
    await beginRefresh(trx);
    // The merchant-months each change touches, tagged with the source they changed through.
    await sql`create temporary table derived_cells (merchant_id integer not null, month date not null,
      source text not null) on commit drop`.execute(trx);
    await sql`create temporary table derived_days (day date not null) on commit drop`.execute(trx);
    // Merchants edited, and the groups moved merchants left: a new merchant has no months to mark yet.
    await sql`create temporary table derived_merchants (merchant_id integer not null) on commit drop`.execute(
      trx,
    );
    await sql`create temporary table derived_former_groups (group_id text not null) on commit drop`.execute(
      trx,
    );
    for (const change of touching) await markCells(trx, change);
    // A merchant's group as its Self Serve rows last counted it, before they are refreshed: a group edited
    // without naming the one left is still found when the merchant has months.
    await sql`insert into derived_former_groups (group_id)
      select distinct s.groupid from selfserve_rows s join merchants m on m.id = s.merchant_id
      where s.merchant_id in (select merchant_id from derived_merchants) and s.groupid <> m.group_id`.execute(
      trx,
    );
    await analyzed(trx, 'derived_cells', 'derived_days', 'derived_merchants', 'derived_former_groups');
    await refreshRollupCells(trx);
    // Before Self Serve rows are refreshed: they still name the ISO each merchant-month was last counted under.
    await refreshProcessingDays(trx);
    await refreshSelfServeCells(trx);
    await refreshDealIncome(trx);
    await refreshBiRollups(trx);
    for (const t of ['derived_cells', 'derived_days', 'derived_merchants', 'derived_former_groups']) {
      await sql`drop table ${sql.table(t)}`.execute(trx);
    }
  });
}

/**
 * Statistics of a refresh's temporary tables, once filled. Autovacuum never analyzes a temporary table, so without
 * them the planner guesses about a thousand rows in each, whatever they hold, and joins a refresh of one merchant
 * by scanning every merchant and every monthly row (2.3 s at p50 for an approval moved at xl; docs/bench.md).
 */
async function analyzed(db: Db, ...tables: string[]): Promise<void> {
  await sql`analyze ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db);
}

/** Whether a change names any rows at all. */
function names(change: SourceChange): boolean {
  switch (change.table) {
    case 'merchant_daily':
      return change.days.length > 0 && change.merchantIds?.length !== 0;
    case 'merchant_monthly':
    case 'merchant_income':
      return change.months.length > 0 && change.merchantIds?.length !== 0;
    case 'merchants':
    case 'partners':
      return change.ids.length > 0;
    default:
      return true;
  }
}

async function markCells(db: Db, change: SourceChange): Promise<void> {
  switch (change.table) {
    case 'merchant_daily': {
      await sql`insert into derived_days (day) select unnest(${dates(change.days)})`.execute(db);
      const months = [...new Set(change.days.map((d) => `${d.slice(0, 7)}-01`))];
      // Without merchants named, every merchant with a row in those months: a deleted day leaves no trace.
      const merchants = change.merchantIds
        ? sql`select unnest(${ints(change.merchantIds)}), mon`
        : sql`select merchant_id, month from merchant_monthly where month = mon
              union select merchant_id, date_trunc('month', day)::date from merchant_daily
                where day = any(${dates(change.days)}) and date_trunc('month', day)::date = mon`;
      await sql`
        insert into derived_cells (merchant_id, month, source)
        select c.merchant_id, c.mon, 'merchant_daily'
        from unnest(${dates(months)}) mon, lateral (${merchants}) c(merchant_id, mon)`.execute(db);
      await resumMonthsFromDays(db);
      return;
    }
    case 'merchant_monthly':
    case 'merchant_income': {
      const merchants = change.merchantIds
        ? sql`select unnest(${ints(change.merchantIds)}) as merchant_id, mon`
        : sql`select merchant_id, month from merchant_monthly where month = mon
              union select merchant_id, month from selfserve_rows where month = mon`;
      await sql`
        insert into derived_cells (merchant_id, month, source)
        select c.merchant_id, c.mon, ${change.table}
        from unnest(${dates(change.months)}) mon, lateral (${merchants}) c(merchant_id, mon)`.execute(db);
      return;
    }
    case 'merchants':
      await cellsWhere(db, 'merchants', sql`merchant_id = any(${ints(change.ids)})`);
      await sql`insert into derived_merchants (merchant_id) select unnest(${ints(change.ids)})`.execute(db);
      await sql`insert into derived_former_groups (group_id) select unnest(${[...(change.formerGroups ?? [])]}::text[])`.execute(
        db,
      );
      return;
    case 'partners':
      await cellsWhere(
        db,
        'partners',
        sql`merchant_id in (select id from merchants where partner_id = any(${ints(change.ids)}))
            or partner_id = any(${ints(change.ids)})`,
      );
      return;
  }
}

/** Every month of the merchants matched, as far as activity or Self Serve rows hold them. */
async function cellsWhere(db: Db, source: SourceTable, where: RawBuilder<unknown>): Promise<void> {
  await sql`
    insert into derived_cells (merchant_id, month, source)
    select merchant_id, month, ${source} from merchant_monthly where ${where}
    union select merchant_id, month, ${source} from selfserve_rows where ${where}`.execute(db);
}

/**
 * merchant_monthly from merchant_daily for the merchant-months marked: the sum of the days; a month left
 * with no days keeps its row at zero (the merchant was open), and no row is made for a month without days.
 */
async function resumMonthsFromDays(db: Db): Promise<void> {
  await sql`
    insert into merchant_monthly (merchant_id, partner_id, month, volume, transactions, chargeback_volume, chargebacks,
      refund_volume, refunds)
    select c.merchant_id, m.partner_id, c.month, sum(d.volume), sum(d.transactions), sum(d.chargeback_volume),
           sum(d.chargebacks), sum(d.refund_volume), sum(d.refunds)
    from (select distinct merchant_id, month from derived_cells where source = 'merchant_daily') c
    join merchants m on m.id = c.merchant_id
    join merchant_daily d on d.merchant_id = c.merchant_id and d.day >= c.month and d.day < (c.month + interval '1 month')::date
    group by c.merchant_id, m.partner_id, c.month
    on conflict (merchant_id, month) do update set volume = excluded.volume, transactions = excluded.transactions,
      chargeback_volume = excluded.chargeback_volume, chargebacks = excluded.chargebacks,
      refund_volume = excluded.refund_volume, refunds = excluded.refunds`.execute(db);
  await sql`
    update merchant_monthly a set volume = 0, transactions = 0, chargeback_volume = 0, chargebacks = 0,
      refund_volume = 0, refunds = 0
    from (select distinct merchant_id, month from derived_cells where source = 'merchant_daily') c
    where a.merchant_id = c.merchant_id and a.month = c.month
      and not exists (select 1 from merchant_daily d where d.merchant_id = c.merchant_id
                      and d.day >= c.month and d.day < (c.month + interval '1 month')::date)`.execute(db);
}

/** The sources a derived table is computed from, directly or through another derived table. */
const sourcesOf = (table: keyof typeof DERIVED_TABLES) => {
  const feeding = SOURCE_TABLES.filter((s) => dependents(s).has(table));
  return sql`(${sql.join(feeding.map((s) => sql`${s}`))})`;
};

async function refreshSelfServeCells(db: Db): Promise<void> {
  const cells = sql`(select distinct merchant_id, month from derived_cells where source in ${sourcesOf('selfserve_rows')})`;
  await sql`delete from selfserve_rows s using ${cells} c where s.merchant_id = c.merchant_id and s.month = c.month`.execute(
    db,
  );
  await insertSelfServeRows(db, sql`join ${cells} c on c.merchant_id = a.merchant_id and c.month = a.month`);
}

/**
 * The rollup by difference: each marked merchant-month's contribution as it is now, less its contribution as
 * last counted, added to the rollup rows it falls in. The last count is the merchant-month's Self Serve row,
 * which holds every field the rollup reads and is refreshed in the same call right after, so it is always
 * what the rollup last counted. A whole-month rebuild would read every merchant-month of each month a
 * merchant has history in: all of it, for one merchant's edit.
 */
async function refreshRollupCells(db: Db): Promise<void> {
  const cells = sql`(select distinct merchant_id, month from derived_cells where source in ${sourcesOf('activity_rollup')})`;
  await sql`
    insert into activity_rollup (month, dimension, value, volume, transactions, income, merchants, age_months)
    ${rollupSums(sql`
      select 1 as sign, a.month, a.volume, a.transactions, coalesce(i.net, 0) as income, m.profile, m.sponsor_bank as bank,
             m.mcc, m.partner_id, m.opened_on
      from merchant_monthly a
      join ${cells} c on c.merchant_id = a.merchant_id and c.month = a.month
      join merchants m on m.id = a.merchant_id
      left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
      union all
      select -1, s.month, s.tx_amt, s.tx_cnt, s.income, s.merchprofile, s.banknum, s.sic, s.partner_id, s.opend
      from selfserve_rows s
      join ${cells} c on c.merchant_id = s.merchant_id and c.month = s.month`)}
    on conflict (dimension, value, month) do update set volume = activity_rollup.volume + excluded.volume,
      transactions = activity_rollup.transactions + excluded.transactions,
      income = activity_rollup.income + excluded.income, merchants = activity_rollup.merchants + excluded.merchants,
      age_months = activity_rollup.age_months + excluded.age_months`.execute(db);
  await sql`delete from activity_rollup where merchants = 0 and month in (select month from ${cells} c)`.execute(
    db,
  );
}

/**
 * processing_daily for the ISO-days the marked cells reach: a change of merchant_daily reaches the days it
 * names, a change of a merchant every day of its marked months (inside the daily window: other days have no
 * rows); each day under the merchant's ISO now and under the ISO its Self Serve row last counted it in (a
 * merchant moved to another ISO leaves the old one). Each such ISO-day is summed again from its merchants'
 * days, then the days' totals from their ISO rows.
 */
async function refreshProcessingDays(db: Db): Promise<void> {
  await sql`create temporary table processing_cells on commit drop as
    select distinct x.day, p.partner_id
    from (
      select c.merchant_id, d.day from derived_cells c
      join (select distinct day from derived_days) d on d.day >= c.month and d.day < (c.month + interval '1 month')::date
      where c.source = 'merchant_daily'
      union
      select c.merchant_id, g.day::date from derived_cells c
      cross join lateral generate_series(greatest(c.month, (select min(day) from merchant_daily)),
        least((c.month + interval '1 month' - interval '1 day')::date, (select max(day) from merchant_daily)),
        interval '1 day') g(day)
      where c.source in ${sourcesOf('processing_daily')} and c.source <> 'merchant_daily'
    ) x
    cross join lateral (
      select partner_id from merchants where id = x.merchant_id
      union select partner_id from selfserve_rows s where s.merchant_id = x.merchant_id and s.month = date_trunc('month', x.day)::date
    ) p`.execute(db);
  await analyzed(db, 'processing_cells');
  // The ISO-days and the days' totals (partner 0) apart: joined by an "or", the delete read every row of the table.
  await sql`delete from processing_daily t using processing_cells c
    where t.partner_id = c.partner_id and t.day = c.day`.execute(db);
  await sql`delete from processing_daily t
    where t.partner_id = 0 and t.day in (select day from processing_cells)`.execute(db);
  await sql`
    insert into processing_daily (day, partner_id, volume, transactions)
    select c.day, c.partner_id, sum(d.volume), sum(d.transactions)
    from processing_cells c
    join merchants m on m.partner_id = c.partner_id
    join merchant_daily d on d.merchant_id = m.id and d.day = c.day
    group by c.day, c.partner_id`.execute(db);
  await sql`
    insert into processing_daily (day, partner_id, volume, transactions)
    select t.day, 0, sum(t.volume), sum(t.transactions)
    from processing_daily t
    where t.partner_id <> 0 and t.day in (select day from processing_cells)
    group by t.day`.execute(db);
  await sql`drop table processing_cells`.execute(db);
}

/** deal_income for the merchants the marked cells reach, summed again from their income rows. */
async function refreshDealIncome(db: Db): Promise<void> {
  const merchants = sql`(select distinct merchant_id from derived_cells where source in ${sourcesOf('deal_income')})`;
  await sql`delete from deal_income where merchant_id in ${merchants}`.execute(db);
  await insertDealIncome(db, sql`where i.merchant_id in ${merchants}`);
}

async function insertDealIncome(db: Db, where: RawBuilder<unknown>): Promise<void> {
  await sql`
    insert into deal_income (merchant_id, partner_id, net, payouts, last_month)
    select i.merchant_id, m.partner_id, sum(i.net), sum(i.payouts), max(i.month)
    from merchant_income i join merchants m on m.id = i.merchant_id
    ${where}
    group by i.merchant_id, m.partner_id`.execute(db);
}

// The rollup's last count is read from selfserve_rows, so every change the rollup follows must refresh them.
for (const source of DERIVED_TABLES.activity_rollup.sources) {
  if (!(DERIVED_TABLES.selfserve_rows.sources as readonly string[]).includes(source)) {
    throw new Error(`activity_rollup follows ${source}, which selfserve_rows does not`);
  }
}

/** Rebuilds every derived table whole from the records: the seed's last step. */
export async function rebuildAll(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    await rebuildFromRecords(trx);
    await rebuildFromDays(trx);
  });
}

/**
 * rebuildAll's part that reads the merchants' months, income and ISOs: Self Serve rows, the activity rollup, deal
 * income, the groups' monthly, income and deal rollups, the ISOs' figures. The staged seed runs it and
 * rebuildFromDays in different transactions, each when its records are committed.
 */
export async function rebuildFromRecords(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    await beginRefresh(trx);
    await sql`delete from selfserve_rows`.execute(trx);
    await insertSelfServeRows(trx, sql``);
    await sql`delete from activity_rollup`.execute(trx);
    await sql`
      insert into activity_rollup (month, dimension, value, volume, transactions, income, merchants, age_months)
      ${rollupSums(sql`
        select 1 as sign, a.month, a.volume, a.transactions, coalesce(i.net, 0) as income, m.profile,
               m.sponsor_bank as bank, m.mcc, m.partner_id, m.opened_on
        from merchant_monthly a
        join merchants m on m.id = a.merchant_id
        left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month`)}`.execute(trx);
    await sql`delete from deal_income`.execute(trx);
    await insertDealIncome(trx, sql``);
    for (const t of BI_ROLLUPS.filter((r) => !FROM_DAYS_TABLES.includes(r)))
      await sql`delete from ${sql.table(t)}`.execute(trx);
    await insertBiActivity(
      trx,
      'month',
      sql`from merchant_monthly a join merchants m on m.id = a.merchant_id`,
    );
    await insertBiIncome(trx, sql`from merchant_income i join merchants m on m.id = i.merchant_id`);
    await insertBiDeals(trx, sql`true`);
    await refreshIsoInfo(trx);
  });
}

/** The derived tables rebuildFromDays writes (and rebuildFromRecords does not). */
export const FROM_DAYS_TABLES: readonly string[] = ['bi_group_daily', 'processing_daily'];

/**
 * rebuildAll's part that reads the daily rows (and the merchants' groups): the groups' daily rollup and the
 * processing days made from it (FROM_DAYS_TABLES).
 */
export async function rebuildFromDays(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    await beginRefresh(trx);
    await sql`delete from bi_group_daily`.execute(trx);
    await insertBiActivity(trx, 'day', sql`from merchant_daily a join merchants m on m.id = a.merchant_id`);
    await sql`delete from processing_daily`.execute(trx);
    // Each ISO's day from its groups' days (bi_group_daily sums every merchant-day under the merchant's group and
    // ISO), and the day's total from its ISOs' sums: exact, and not a second pass over every merchant-day.
    await sql`
      insert into processing_daily (day, partner_id, volume, transactions)
      with by_iso as (
        select day, partner_id, sum(volume) as volume, sum(transactions) as transactions
        from bi_group_daily group by day, partner_id)
      select day, partner_id, volume, transactions from by_iso
      union all
      select day, 0, sum(volume), sum(transactions) from by_iso group by day`.execute(trx);
  });
}

/** The groups' rollups (docs/bi.md). */
export const BI_ROLLUPS = [
  'bi_group_daily',
  'bi_group_monthly',
  'bi_group_income',
  'bi_group_deals',
  'bi_group_totals',
  'bi_group_states',
  'bi_group_openings',
];

/**
 * The group rollups for what the marked cells reach. Group-days: the days named by a change of daily
 * activity, every day of the marked months for an edited merchant (the daily window holds the others' rows
 * only). Group-months: every marked month. Whole groups (deals, states): those of edited merchants and of
 * changed income. Each under the merchant's group now and the groups moved merchants left.
 */
async function refreshBiRollups(db: Db): Promise<void> {
  const groupsOf = (merchants: RawBuilder<unknown>) =>
    sql`select m.group_id from merchants m where m.id in (${merchants}) union select group_id from derived_former_groups`;
  await sql`create temporary table bi_month_cells on commit drop as
    select distinct g.group_id, c.month
    from (select distinct merchant_id, month from derived_cells) c
    cross join lateral (${groupsOf(sql`c.merchant_id`)}) g`.execute(db);
  await sql`create temporary table bi_day_cells on commit drop as
    select distinct g.group_id, x.day
    from (
      select c.merchant_id, d.day from derived_cells c
      join (select distinct day from derived_days) d on d.day >= c.month and d.day < (c.month + interval '1 month')::date
      where c.source = 'merchant_daily'
      union
      select c.merchant_id, g.day::date from derived_cells c
      cross join lateral generate_series(greatest(c.month, (select min(day) from merchant_daily)),
        least((c.month + interval '1 month' - interval '1 day')::date, (select max(day) from merchant_daily)),
        interval '1 day') g(day)
      where c.source = 'merchants'
    ) x
    cross join lateral (${groupsOf(sql`x.merchant_id`)}) g`.execute(db);
  await sql`create temporary table bi_groups on commit drop as
    select m.group_id from merchants m
    where m.id in (select merchant_id from derived_merchants
                   union select merchant_id from derived_cells where source in ${sourcesOf('bi_group_deals')})
    union select group_id from derived_former_groups`.execute(db);
  await analyzed(db, 'bi_month_cells', 'bi_day_cells', 'bi_groups');

  // The rows of the cells reached, deleted before they are summed again.
  const clear = (table: string, cells: string, key: 'day' | 'month') =>
    sql`delete from ${sql.table(table)} t using ${sql.table(cells)} c
        where t.group_id = c.group_id and t.${sql.ref(key)} = c.${sql.ref(key)}`.execute(db);
  await clear('bi_group_daily', 'bi_day_cells', 'day');
  await insertBiActivity(
    db,
    'day',
    sql`from bi_day_cells c join merchants m on m.group_id = c.group_id
        join merchant_daily a on a.merchant_id = m.id and a.day = c.day`,
  );
  await clear('bi_group_monthly', 'bi_month_cells', 'month');
  await insertBiActivity(
    db,
    'month',
    sql`from bi_month_cells c join merchants m on m.group_id = c.group_id
        join merchant_monthly a on a.merchant_id = m.id and a.month = c.month`,
  );
  await clear('bi_group_income', 'bi_month_cells', 'month');
  await insertBiIncome(
    db,
    sql`from bi_month_cells c join merchants m on m.group_id = c.group_id
        join merchant_income i on i.merchant_id = m.id and i.month = c.month`,
  );
  for (const table of ['bi_group_deals', 'bi_group_totals', 'bi_group_openings'])
    await sql`delete from ${sql.table(table)} where group_id in (select group_id from bi_groups)`.execute(db);
  await insertBiDeals(db, sql`m.group_id in (select group_id from bi_groups)`, 'where changed');
  await refreshIsoInfo(
    db,
    sql`select partner_id from groups where group_id in (select group_id from bi_groups)`,
  );
  for (const t of ['bi_month_cells', 'bi_day_cells', 'bi_groups'])
    await sql`drop table ${sql.table(t)}`.execute(db);
}

/** A merchant (alias m) is open today: it has no closing day, or closes after today. */
export const OPEN_TODAY = sql`(m.closed_on is null or m.closed_on > current_date)`;

/**
 * Counts per age bucket (0–6 m, 6–12 m, 1–2 y, 2–3 y, > 3 y), comma-joined. A deal is under N months old on
 * day t exactly when it was approved after t − N months: the same whole months as age() counts, without
 * computing age() for every merchant.
 */
function ageSet(which: RawBuilder<unknown>, to: RawBuilder<unknown>) {
  const under = (n: number) => sql`d.approved_on > (${to} - interval ${sql.lit(`${n} months`)})::date`;
  const edges = [6, 12, 24, 36];
  const parts = [
    sql`count(*) filter (where ${which} and ${under(6)})`,
    ...edges
      .slice(1)
      .map(
        (n, k) => sql`count(*) filter (where ${which} and ${under(n)} and not ${under(edges[k] as number)})`,
      ),
    sql`count(*) filter (where ${which} and not ${under(36)})`,
  ];
  return sql`concat_ws(',', ${sql.join(parts)})`;
}

/**
 * Each ISO's figures of GetAllInformation (docs/bi.md) as of today, from the merchants `which` keeps (of the
 * ISOs it names, all of each one's merchants): one row per ISO with merchants, the columns of bi_iso_info but
 * as_of.
 */
export function isoInfoSums(which: RawBuilder<unknown> = sql`true`): RawBuilder<unknown> {
  return sql`
    select d.partner_id, count(*)::int as approved_deals, min(d.approved_on) as first, max(d.approved_on) as last,
           count(*) filter (where d.open)::int as open_deals, count(*) filter (where not d.open)::int as closed_deals,
           (current_date - min(d.approved_on) filter (where d.open)) as open_longest,
           (current_date - max(d.approved_on) filter (where d.open)) as open_shortest,
           max(d.closed_on - d.approved_on) filter (where not d.open) as closed_longest,
           min(d.closed_on - d.approved_on) filter (where not d.open) as closed_shortest,
           ${ageSet(sql`d.open`, sql`current_date`)} as open_age_set,
           ${ageSet(sql`not d.open`, sql`d.closed_on`)} as closed_age_set,
           count(*) filter (where d.sponsor_bank = 'CBCAL')::int as cbcal,
           count(*) filter (where d.sponsor_bank = 'Esquire')::int as esquire,
           count(*) filter (where d.sponsor_bank = 'Chesapeake')::int as chesapeake,
           count(*) filter (where d.profile = 'PayLo')::int as pl_count,
           count(*) filter (where d.profile = 'Traditional')::int as tr_count,
           count(*) filter (where d.profile = 'High Risk')::int as hr_count,
           count(*) filter (where d.profile not in ('PayLo', 'Traditional', 'High Risk'))::int as ns_count
    from (
      select m.partner_id, m.approved_on, m.closed_on, m.sponsor_bank, m.profile, ${OPEN_TODAY} as open
      from merchants m where ${which}
    ) d
    group by d.partner_id`;
}

const ISO_INFO_COLUMNS =
  sql.raw(`partner_id, approved_deals, first, last, open_deals, closed_deals, open_longest,
  open_shortest, closed_longest, closed_shortest, open_age_set, closed_age_set, cbcal, esquire, chesapeake, pl_count,
  tr_count, hr_count, ns_count`);

/**
 * Rebuilds bi_iso_info as of today: the rows of the ISOs `partners` selects (a query of partner ids), or every
 * row. The table's owner only (refreshDerived, rebuildAll, the bi.iso-info job). Some ISOs' rows are rebuilt only
 * into a table that holds rows: an empty one (just made by its migration) stays empty until every ISO's row is
 * made, since a reader takes today's rows for the whole list.
 */
export async function refreshIsoInfo(db: Db, partners?: RawBuilder<unknown>): Promise<void> {
  if (partners) {
    const { rows } = await sql<{ kept: boolean }>`select exists (select 1 from bi_iso_info) as kept`.execute(
      db,
    );
    if (!rows[0]?.kept) return;
  }
  const which = partners ? sql`m.partner_id in (${partners})` : sql`true`;
  await sql`delete from bi_iso_info ${partners ? sql`where partner_id in (${partners})` : sql``}`.execute(db);
  await sql`insert into bi_iso_info (${ISO_INFO_COLUMNS}, as_of)
    select ${ISO_INFO_COLUMNS}, current_date from (${isoInfoSums(which)}) s`.execute(db);
}

/**
 * Rebuilds every row of bi_iso_info when any is of an earlier day (or there are merchants and no rows), after
 * any other refresh of derived data commits; how many ISOs it wrote (0: nothing was stale).
 */
export async function rebuildIsoInfo(db: Db): Promise<number> {
  return inTransaction(db, async (trx) => {
    await beginRefresh(trx);
    const { rows } = await sql<{ stale: boolean }>`
      select exists (select 1 from bi_iso_info where as_of < current_date)
        or (not exists (select 1 from bi_iso_info) and exists (select 1 from merchants)) as stale`.execute(
      trx,
    );
    if (!rows[0]?.stale) return 0;
    await refreshIsoInfo(trx);
    const { rows: n } = await sql<{ n: number }>`select count(*)::int as n from bi_iso_info`.execute(trx);
    return n[0]?.n ?? 0;
  });
}

/** The profiles the executive calls split activity by, as docs/bi.md names them. */
export const BI_PROFILES = [
  ['tr', sql`= 'Traditional'`],
  ['pl', sql`= 'PayLo'`],
  ['hr', sql`= 'High Risk'`],
  ['ns', sql`not in ('Traditional', 'PayLo', 'High Risk')`],
] as const;

/**
 * A group's activity per day or month from `from` (activity rows a, their merchants m). Summed in two steps: each
 * group's period per profile first (seven sums a row), then the profiles' columns from those few rows. Summed in
 * one step, each of the 16.8 million daily rows of the large scale fed 26 filtered sums (the rebuild's group-days:
 * 55 s in one step, 42 s in two; docs/bench.md).
 */
async function insertBiActivity(db: Db, period: 'day' | 'month', from: RawBuilder<unknown>): Promise<void> {
  const table = period === 'day' ? sql`bi_group_daily` : sql`bi_group_monthly`;
  const column = sql.ref(`a.${period}`);
  // A merchant has one row per day or month, so counting rows counts merchants.
  const profiles = BI_PROFILES.flatMap(([key, test]) => [
    { name: `${key}_active`, sum: sql`coalesce(sum(s.active) filter (where s.profile ${test}), 0)` },
    {
      name: `${key}_transactions`,
      sum: sql`coalesce(sum(s.transactions) filter (where s.profile ${test}), 0)`,
    },
    {
      name: `${key}_chargebacks`,
      sum: sql`coalesce(sum(s.chargebacks) filter (where s.profile ${test}), 0)`,
    },
    { name: `${key}_refunds`, sum: sql`coalesce(sum(s.refunds) filter (where s.profile ${test}), 0)` },
  ]);
  await sql`
    insert into ${table} (group_id, ${sql.ref(period)}, partner_id, volume, transactions, chargeback_volume, chargebacks,
      refund_volume, refunds, active, ${sql.join(profiles.map((p) => sql.ref(p.name)))})
    select s.group_id, s.period, s.partner_id, sum(s.volume), sum(s.transactions), sum(s.chargeback_volume),
           sum(s.chargebacks), sum(s.refund_volume), sum(s.refunds), sum(s.active),
           ${sql.join(profiles.map((p) => p.sum))}
    from (
      select m.group_id, ${column} as period, m.partner_id, m.profile, sum(a.volume) as volume,
             sum(a.transactions) as transactions, sum(a.chargeback_volume) as chargeback_volume,
             sum(a.chargebacks) as chargebacks, sum(a.refund_volume) as refund_volume, sum(a.refunds) as refunds,
             count(*) filter (where a.transactions > 0) as active
      ${from}
      group by m.group_id, ${column}, m.partner_id, m.profile
    ) s
    group by s.group_id, s.period, s.partner_id`.execute(db);
}

/** A group's income per month from `from` (income rows i, their merchants m). */
async function insertBiIncome(db: Db, from: RawBuilder<unknown>): Promise<void> {
  await sql`
    insert into bi_group_income (group_id, month, partner_id, gross, net, expenses, payouts, merchants)
    select m.group_id, i.month, m.partner_id, sum(i.gross), sum(i.net), sum(i.expenses), sum(i.payouts), count(*)
    ${from}
    group by m.group_id, i.month, m.partner_id`.execute(db);
}

/**
 * The groups' deals, totals, states and openings of the merchants `which` keeps. `states: 'where changed'` (a
 * refresh, the groups' old rows of the other three deleted before) leaves the groups' states as they are when they
 * come out the same, and rewrites them whole otherwise: the map's version (`bi_map`) is raised by every statement
 * that writes `bi_group_states`, so an edit that moves no merchant to another state, group or closing day (an
 * approval's day moved, a merchant renamed) keeps the map (areas/bi/queries.ts, keptMap).
 */
async function insertBiDeals(
  db: Db,
  which: RawBuilder<unknown>,
  states: 'all' | 'where changed' = 'all',
): Promise<void> {
  const closings = sql`coalesce(array_agg(m.closed_on order by m.closed_on) filter (where m.closed_on is not null), '{}')`;
  await sql`
    insert into bi_group_deals (group_id, month, partner_id, approved, first, last, net, payouts, closings)
    select m.group_id, date_trunc('month', m.approved_on)::date, m.partner_id, count(*), min(m.approved_on),
           max(m.approved_on), coalesce(sum(e.net), 0), coalesce(sum(e.payouts), 0), ${closings}
    from merchants m left join deal_income e on e.merchant_id = m.id
    where ${which}
    group by 1, 2, 3`.execute(db);
  // With the group's stats fields (ISO analytics), every closing counted as past (migration 2026_12_17_0010).
  await sql`
    insert into bi_group_totals (group_id, partner_id, first_month, last_month, approved, first, last, net, payouts,
      closings, approval_months, approval_counts, stats_fields)
    select x.group_id, x.partner_id, x.first_month, x.last_month, x.approved, x.first, x.last, x.net, x.payouts,
           x.closings, x.approval_months, x.approval_counts,
           paydesk_bi_stats_fields(x.approved, x.approved - cardinality(x.closings), x.first, x.last, x.net, x.payouts)
    from (
      select d.group_id, min(d.partner_id) as partner_id, min(d.month) as first_month, max(d.month) as last_month,
             sum(d.approved)::bigint as approved, min(d.first) as first, max(d.last) as last, sum(d.net) as net,
             sum(d.payouts) as payouts,
             coalesce((select array_agg(c order by c) from bi_group_deals d2, unnest(d2.closings) c
                       where d2.group_id = d.group_id), '{}') as closings,
             array_agg(d.month - date '2000-01-01' order by d.month)::text as approval_months,
             array_agg(d.approved order by d.month)::text as approval_counts
      from bi_group_deals d
      where d.group_id in (select m.group_id from merchants m where ${which})
      group by d.group_id
    ) x`.execute(db);
  const statesOf = sql`
    select m.group_id, m.state, m.partner_id, count(*) as merchants, ${closings} as closings
    from merchants m
    where ${which} and m.state is not null
    group by 1, 2, 3`;
  const insertStates = sql`insert into bi_group_states (group_id, state, partner_id, merchants, closings)`;
  if (states === 'all') {
    await sql`${insertStates} ${statesOf}`.execute(db);
  } else {
    await sql`create temporary table bi_new_states on commit drop as ${statesOf}`.execute(db);
    // The refresh's groups (bi_groups): those `which` keeps, and those its merchants left.
    const old = sql`select group_id, state, partner_id, merchants, closings from bi_group_states
                    where group_id in (select group_id from bi_groups)`;
    const fresh = sql`select group_id, state, partner_id, merchants, closings from bi_new_states`;
    const { rows } = await sql<{ changed: boolean }>`
      select exists (${old} except ${fresh}) or exists (${fresh} except ${old}) as changed`.execute(db);
    if (rows[0]?.changed) {
      await sql`delete from bi_group_states where group_id in (select group_id from bi_groups)`.execute(db);
      await sql`${insertStates} ${fresh}`.execute(db);
    }
    await sql`drop table bi_new_states`.execute(db);
  }
  // A merchant closed on or before its approval day is open on no day: it neither opens nor closes.
  await sql`
    insert into bi_group_openings (group_id, day, partner_id, opened, closed)
    select x.group_id, x.day, x.partner_id, sum(x.opened), sum(x.closed)
    from (
      select m.group_id, m.approved_on as day, m.partner_id, 1 as opened, 0 as closed from merchants m
      where ${which} and (m.closed_on is null or m.closed_on > m.approved_on)
      union all
      select m.group_id, m.closed_on, m.partner_id, 0, 1 from merchants m where ${which} and m.closed_on > m.approved_on
    ) x
    group by 1, 2, 3`.execute(db);
}

/**
 * Self Serve pre-joined: one row per merchant-month with the merchant's fields as of that month, its ISO's
 * name, its activity and its income (net).
 */
async function insertSelfServeRows(db: Db, only: RawBuilder<unknown>): Promise<void> {
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
    ${only}
    join merchants m on m.id = a.merchant_id
    join partners p on p.id = m.partner_id
    left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
    order by a.month, a.merchant_id`.execute(db);
}

/** The rollup's filter dimensions, each with the merchant-month's value for it (columns of x in rollupSums). */
const ROLLUP_DIMENSIONS = [
  ['profile', sql`x.profile`],
  ['bank', sql`x.bank`],
  ['omonth', sql`x.omonth`],
  ['oyear', sql`x.oyear`],
  ['mcc', sql`x.mcc`],
  ['partner', sql`x.partner`],
] as const;

/**
 * The rollup's sums of merchant-months (rows of: sign, month, volume, transactions, income, profile, bank,
 * mcc, partner_id, opened_on) by each filter dimension and in total ('all'); a sign of -1 takes a row away.
 * One pass with grouping sets, one per dimension: `grouping()` says which set a sum belongs to (its bit is 0 for
 * the set's own dimension). Expanding each row into one per dimension and grouping those took about twice as long.
 */
function rollupSums(rows: RawBuilder<unknown>): RawBuilder<unknown> {
  const dims = ROLLUP_DIMENSIONS.map(([, column]) => column);
  const mask = (i: number) => (1 << dims.length) - 1 - (1 << (dims.length - 1 - i));
  const which = sql`grouping(${sql.join(dims)})`;
  return sql`
    select x.month,
           case ${which} ${sql.join(
             ROLLUP_DIMENSIONS.map(([name], i) => sql`when ${sql.lit(mask(i))} then ${sql.lit(name)}`),
             sql` `,
           )} else 'all' end,
           case ${which} ${sql.join(
             ROLLUP_DIMENSIONS.map(([, column], i) => sql`when ${sql.lit(mask(i))} then ${column}`),
             sql` `,
           )} else '' end,
           sum(x.sign * x.volume), sum(x.sign * x.transactions), sum(x.sign * x.income),
           sum(x.sign), sum(x.sign * x.age_months)
    from (
      -- A merchant-month's age once, not once for each dimension it is summed in.
      select r.*, (extract(year from age(r.month, date_trunc('month', r.opened_on))) * 12
                   + extract(month from age(r.month, date_trunc('month', r.opened_on))))::int as age_months,
             extract(month from r.opened_on)::int::text as omonth, extract(year from r.opened_on)::int::text as oyear,
             r.partner_id::text as partner
      from (${rows}) r
      offset 0
    ) x
    group by grouping sets ((x.month), ${sql.join(dims.map((d) => sql`(x.month, ${d})`))})`;
}

/**
 * Moves a merchant to another ISO and one of its groups: the merchant, every copy of its ISO on its history
 * (activity, income, residuals, adjustments, applications) and the derived rows, so that the new ISO's
 * users see its whole history and the old ISO's users none of it. Staff-only, like every refresh.
 */
export async function moveMerchant(
  db: Db,
  move: { merchantId: number; partnerId: number; groupId: string },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await beginRefresh(trx);
    const merchant = await trx
      .selectFrom('merchants')
      .select(['id', 'group_id'])
      .where('id', '=', move.merchantId)
      .executeTakeFirst();
    if (!merchant) throw badRequest(`Unknown merchant ${move.merchantId}`);
    const group = await trx
      .selectFrom('groups')
      .select('partner_id')
      .where('group_id', '=', move.groupId)
      .executeTakeFirst();
    if (!group) throw badRequest(`Unknown group ${move.groupId}`);
    if (group.partner_id !== move.partnerId) {
      throw badRequest(`Group ${move.groupId} does not belong to ISO ${move.partnerId}`);
    }
    await trx
      .updateTable('merchants')
      .set({ partner_id: move.partnerId, group_id: move.groupId })
      .where('id', '=', move.merchantId)
      .execute();
    for (const table of MERCHANT_ISO_COPIES) {
      await sql`update ${sql.table(table)} set partner_id = ${move.partnerId} where merchant_id = ${move.merchantId}`.execute(
        trx,
      );
    }
    await trx
      .updateTable('applications')
      .set({ group_id: move.groupId })
      .where('merchant_id', '=', move.merchantId)
      .execute();
    await refreshDerived(trx, {
      table: 'merchants',
      ids: [move.merchantId],
      formerGroups: [merchant.group_id],
    });
  });
}

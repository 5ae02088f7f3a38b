import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connect';
import { refreshDerived } from '../../db/derived';
import { type ImportSteps, rejection, rejectRows } from '../../platform/imports';
import { bulkStep } from '../../platform/signinFirst';

/** Every MID of the file is a known merchant (and one the user may see). */
export async function checkKnownMids(db: Db) {
  await rejectRows(
    db,
    'select r.row_no, r.c_mid from import_rows r left join merchants m on m.mid = r.c_mid where m.id is null',
    (r) => `Unknown MID ${r.c_mid}`,
    'MID',
  );
}

/**
 * Known MIDs, each at most once per period of the file. `allKnown` says the apply step already found a merchant
 * for every row (the known-MID query is then skipped).
 */
export async function checkMids(db: Db, periodColumns: string[] = [], allKnown = false) {
  if (!allKnown) await checkKnownMids(db);
  const partition = ['c_mid', ...periodColumns].join(', ');
  // Most files have no repeated MID: a grouping says so quicker (hashed) than numbering every row in order does;
  // only a file with one is read again to name its rows.
  const { rows: repeated } = await sql
    .raw(`select 1 from import_rows group by ${partition} having count(*) > 1 limit 1`)
    .execute(db);
  if (repeated.length === 0) return;
  await rejectRows(
    db,
    `select row_no, c_mid, first from (select row_no, c_mid, min(row_no) over (partition by ${partition}) as first,
       row_number() over (partition by ${partition} order by row_no) as k from import_rows) x where k > 1`,
    (r) => `MID ${r.c_mid} appears more than once (first on row ${r.first})`,
    'MID',
  );
}

/**
 * Self Serve import: one month's activity and income per MID. A MID's month is replaced; the income is the
 * net, so gross is net plus the month's expenses and the ISO's payout follows its rev share.
 */
export async function applySelfServeImport(db: Db, month: string): Promise<void> {
  await checkMids(db);
  await rejectRows(
    db,
    'select row_no from import_rows where c_tx_cnt < 0 or c_cb_cnt < 0 or c_ref_cnt < 0',
    () => 'Counts must not be negative',
  );
  await sql`
    insert into merchant_monthly (merchant_id, partner_id, month, volume, transactions, chargeback_volume, chargebacks, refund_volume, refunds)
    select m.id, m.partner_id, ${month}::date, r.c_tx_amt, r.c_tx_cnt, r.c_cb_amt, r.c_cb_cnt, r.c_ref_amt, r.c_ref_cnt
    from import_rows r join merchants m on m.mid = r.c_mid
    on conflict (merchant_id, month) do update set volume = excluded.volume, transactions = excluded.transactions,
      chargeback_volume = excluded.chargeback_volume, chargebacks = excluded.chargebacks,
      refund_volume = excluded.refund_volume, refunds = excluded.refunds`.execute(db);
  await sql`
    insert into merchant_income (merchant_id, partner_id, month, gross, net, expenses, payouts,
      interchange_income, interchange_expense, card_brand_income, card_brand_expense)
    select m.id, m.partner_id, ${month}::date, r.c_income + coalesce(i.expenses, 0), r.c_income, coalesce(i.expenses, 0),
           round(greatest(r.c_income, 0) * g.rev_share, 2),
           coalesce(i.interchange_income, 0), coalesce(i.interchange_expense, 0),
           coalesce(i.card_brand_income, 0), coalesce(i.card_brand_expense, 0)
    from import_rows r
    join merchants m on m.mid = r.c_mid
    join groups g on g.group_id = m.group_id
    left join merchant_income i on i.merchant_id = m.id and i.month = ${month}::date
    on conflict (merchant_id, month) do update set gross = excluded.gross, net = excluded.net,
      expenses = excluded.expenses, payouts = excluded.payouts`.execute(db);
  const { rows } = await sql<{
    id: number;
  }>`select m.id from import_rows r join merchants m on m.mid = r.c_mid`.execute(db);
  const merchantIds = rows.map((r) => r.id);
  await refreshDerived(
    db,
    { table: 'merchant_monthly', months: [month], merchantIds },
    { table: 'merchant_income', months: [month], merchantIds },
  );
}

/**
 * The most months one residual file may hold (a month's statements are one file; this allows five years of them at
 * once). Each month new to the table becomes a table of its own, so the bound also bounds what one import creates.
 */
export const MAX_RESIDUAL_FILE_MONTHS = 60;

/** The advisory lock class of a residual month (the second key is the month's number, year × 12 + month). */
const RESIDUAL_MONTH_LOCK = 18_0201;
const monthNumber = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

const RESIDUAL_VALUES = `r.c_transactions, r.c_volume, r.c_income, r.c_gross, r.c_net, r.c_achcollectedgross,
  r.c_achcollectedpayout, r.c_achcollectednet, r.c_achrejectedgross, r.c_achrejectednet, r.c_refundsgross,
  r.c_refundspayout, r.c_refundsnet, r.c_totalgross, r.c_totalpayout, r.c_totalnet, r.c_income1, r.c_expense, r.c_profitloss`;

/**
 * Residual rows replace the residuals of every (processor, month) in the file. `processor` is a SQL
 * expression: the file's Processor column, or a fixed processor for the Residual_TSYS/PPS uploads.
 *
 * Residuals are partitioned by month (2026_12_02_0010_residuals_by_month). A month of the file that has no rows yet
 * (the usual monthly file) is built apart (2026_12_08_0040_residual_builds): its rows are written, batch by batch
 * as the file is read (the `staged` step), to a bare table of a name of its own, with no index, key or trigger to
 * keep row by row; once the whole file is read and good, its indexes, key and merchant key are made (`prepared`)
 * — PostgreSQL builds each index in one sort and checks the merchants in one join. A route that prepares its
 * import (platform/http.ts) runs both before its transaction opens, so the transaction (`finish`) only publishes
 * the table as the month's partition, which takes milliseconds; on the embedded database, whose one connection a
 * transaction holds, a sign-in no longer waits for the whole import.
 *
 * `finish` checks the whole file (a processor it knows, known MIDs, each MID once per month), publishes each built
 * month, and replaces the rows of every month that has some, row by row, under the month's lock. A month another
 * import gave rows while this one was built is replaced row by row too (its build is dropped). A bad file is
 * refused with nothing changed, and its built tables are dropped (`release`). The built tables are shut to the ISO
 * role (only staff may import residuals).
 */
export function residualImport(processor: 'file' | 'TSYS' | 'PPS'): ImportSteps {
  const processorExpr = processor === 'file' ? 'upper(r.c_processor)' : `'${processor}'`;
  // A row with another processor is left for the final check to refuse (it would break the table's own check).
  const knownProcessor = processor === 'file' ? `upper(r.c_processor) in ('TSYS', 'PPS')` : 'true';
  /** The last row_no staged. */
  let through = 0;
  /**
   * Each month seen: its build table and the rows written to it while the month had no rows in `residuals`, or
   * `live` when it had (or got them from another import meanwhile): replaced row by row in the transaction.
   */
  const state = new Map<string, { build: string; rows: number } | 'live'>();
  /** Every build table made (release drops those not published). */
  const made: string[] = [];
  /** The first month beyond MAX_RESIDUAL_FILE_MONTHS, and its first row: nothing more is applied, and the file is refused. */
  let overMonths: { month: string; row: number } | null = null;
  /** The columns and values a row of `residuals` is written with, from the staged row `r` and its merchant `m`. */
  const insertRows = (table: string, from: string, where: RawBuilder<unknown>) =>
    sql`insert into ${sql.table(table)} (partner_id, merchant_id, month, processor, mid, dba, agent, office,
          payout_schedule, payout_to, transactions, volume, income, gross, net, ach_collected_gross,
          ach_collected_payout, ach_collected_net, ach_rejected_gross, ach_rejected_net, refunds_gross,
          refunds_payout, refunds_net, total_gross, total_payout, total_net, income1, expense, profit_loss)
        select m.partner_id, m.id, r.c_yearmonth, ${sql.raw(processorExpr)}, r.c_mid, coalesce(r.c_dba, m.dba),
          r.c_agent, r.c_office, r.c_payoutschedule, r.c_payoutto, ${sql.raw(RESIDUAL_VALUES)}
        from ${sql.table(from)} r
        cross join lateral (select m.id, m.partner_id, m.dba from merchants m where m.mid = r.c_mid offset 0) m
        where ${sql.raw(knownProcessor)} and ${where}
        order by r.c_yearmonth, lower(r.c_agent), r.row_no`;
  const builds = () => [...state].flatMap(([month, s]) => (typeof s === 'object' ? [{ month, ...s }] : []));

  return {
    /** Months new to `residuals` are written to their build tables as the file is read. */
    async staged(db: Db, table: string) {
      if (overMonths) return;
      const { rows: last } = await sql<{ upTo: number }>`
        select coalesce(max(r.row_no), 0)::int as "upTo" from ${sql.table(table)} r where r.row_no > ${through}`.execute(
        db,
      );
      const upTo = last[0]?.upTo ?? 0;
      if (upTo <= through) return;
      const batch = `r.row_no > ${through} and r.row_no <= ${upTo}`;
      const { rows: months } = await sql<{ month: string }>`
        select distinct r.c_yearmonth::text as month from ${sql.table(table)} r
        where ${sql.raw(batch)} and ${sql.raw(knownProcessor)} order by 1`.execute(db);
      const newMonths = months.map((m) => m.month).filter((m) => !state.has(m));
      if (state.size + newMonths.length > MAX_RESIDUAL_FILE_MONTHS) {
        const month = newMonths[MAX_RESIDUAL_FILE_MONTHS - state.size] ?? '';
        const { rows: first } = await sql<{ row: number }>`
          select min(row_no)::int as row from ${sql.table(table)} where c_yearmonth = ${month}::date`.execute(
          db,
        );
        overMonths = { month, row: first[0]?.row ?? 0 };
        return;
      }
      for (const month of newMonths) {
        const { rows: bare } = await sql<{
          build: string | null;
        }>`select paydesk_residual_bare(${month}::date) as build`.execute(db);
        const build = bare[0]?.build;
        if (build) made.push(build);
        state.set(month, build ? { build, rows: 0 } : 'live');
      }
      // Each row's merchant by its key (a batch is a few hundred to a few thousand rows; hashing every merchant for
      // each would cost more than the lookups). An unknown MID finds none here: the final check refuses it. The rows
      // are written in the order of their agent, as a month's rows are kept (2026_12_07_0020_residuals_agent_order):
      // a month lies in a run of agents per batch (per megabyte on PostgreSQL; per 128 KB on the embedded database,
      // whose months are small and whose statements must stay short, platform/importRows.ts).
      for (const { month } of months) {
        const s = state.get(month);
        if (typeof s !== 'object') continue;
        const inserted = await insertRows(
          s.build,
          table,
          sql`${sql.raw(batch)} and r.c_yearmonth = ${month}::date`,
        ).execute(db);
        s.rows += Number(inserted.numAffectedRows ?? 0);
      }
      through = upTo;
    },
    /** The built months' indexes, keys and statistics, one statement at a time (the bad file never gets here). */
    async prepared(db: Db) {
      if (overMonths) return;
      for (const { build } of builds()) {
        for (let k = 0; ; k++) {
          await bulkStep(db);
          const { rows } = await sql<{
            more: boolean;
          }>`select paydesk_residual_index(${build}, ${k}) as more`.execute(db);
          if (!rows[0]?.more) break;
        }
      }
    },
    /** Checks the whole file (throws ImportRejected), publishes the built months and replaces the others. */
    async finish(db: Db): Promise<void> {
      if (overMonths) {
        throw rejection([
          {
            row: overMonths.row,
            column: 'YearMonth',
            message: `A residual file may hold at most ${MAX_RESIDUAL_FILE_MONTHS} months; ${overMonths.month.slice(0, 7)} is one more`,
          },
        ]);
      }
      if (processor === 'file') {
        await rejectRows(
          db,
          "select row_no, c_processor from import_rows r where upper(r.c_processor) not in ('TSYS', 'PPS')",
          (r) => `Processor must be TSYS or PPS, not ${r.c_processor}`,
          'Processor',
        );
      }
      // Every month of the file is locked, in month order (two imports of the same months wait for each other, and
      // never each for the other); publishing a month takes its lock again.
      for (const month of [...state.keys()].sort())
        await sql`select pg_advisory_xact_lock(${RESIDUAL_MONTH_LOCK}, ${monthNumber(month)})`.execute(db);
      /** Rows written for their merchant: when every row of a known processor was, every MID is known. */
      let written = 0;
      for (const { month, build, rows } of builds()) {
        const { rows: published } = await sql<{
          done: boolean;
        }>`select paydesk_residual_publish(${build}, ${month}::date) as done`.execute(db);
        if (published[0]?.done) written += rows;
        else state.set(month, 'live');
      }
      const live = [...state].flatMap(([month, s]) => (s === 'live' ? [month] : [])).sort();
      if (live.length > 0) {
        const { rows: pairs } = await sql<{ processor: string; month: string }>`
          select distinct ${sql.raw(processorExpr)} as processor, r.c_yearmonth::text as month from import_rows r
          where ${sql.raw(knownProcessor)} and r.c_yearmonth = any(${live}::date[]) order by 2, 1`.execute(
          db,
        );
        // A month whose rows are still in the default partition gets a partition of its own first.
        for (const month of live) await sql`select paydesk_residual_partition(${month}::date)`.execute(db);
        for (const { processor: p, month } of pairs)
          await sql`delete from residuals where processor = ${p} and month = ${month}::date`.execute(db);
        const inserted = await insertRows(
          'residuals',
          'import_rows',
          sql`r.c_yearmonth = any(${live}::date[])`,
        ).execute(db);
        written += Number(inserted.numAffectedRows ?? 0);
      }
      const { rows: known } = await sql<{ n: number }>`
        select count(*)::int as n from import_rows r where ${sql.raw(knownProcessor)}`.execute(db);
      await checkMids(
        db,
        processor === 'file' ? ['c_yearmonth', 'upper(c_processor)'] : ['c_yearmonth'],
        written === (known[0]?.n ?? 0),
      );
      await refreshDerived(db, { table: 'residuals' });
    },
    /** Drops the built tables not published (a refused file, a failed transaction, a month taken meanwhile). */
    async release(db: Db) {
      for (const build of made) await sql`select paydesk_residual_drop_build(${build})`.execute(db);
    },
  };
}

/**
 * Drops the build tables of residual imports that ended without a word (a server stopped in the middle of one),
 * once they are an hour old; answers how many. The server calls it when it starts.
 */
export async function dropStaleResidualBuilds(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`select paydesk_residual_drop_stale_builds() as n`.execute(db);
  return rows[0]?.n ?? 0;
}

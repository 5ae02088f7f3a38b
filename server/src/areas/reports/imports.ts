import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { refreshDerived } from '../../db/derived';
import { type ImportSteps, rejection, rejectRows } from '../../platform/imports';

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
 * The rows are applied as they are staged (the `staged` step, run by stageImport's `onStaged`): each batch's months not yet replaced have
 * their old rows deleted, then the batch's rows are inserted, while the thread reads the rest of the file; 100,000
 * rows used to be read first and inserted after, one wait after the other. The file's checks (a processor it
 * knows, known MIDs, each MID once per month) run on the whole file at the end, and a bad file is refused with
 * everything the batches wrote undone, as the request's transaction rolls back.
 *
 * Residuals are partitioned by month (2026_12_02_0010_residuals_by_month). A month of the file that has no rows yet
 * (the usual monthly file) is written to a bare table of its own, with no index, key or trigger to keep row by row,
 * and attached as the month's partition: PostgreSQL builds its indexes in one sort each and checks its merchants in
 * one join. It is attached as soon as a batch has none of its rows (files come month by month, so the index builds
 * overlap the reading of the next month), or at the end; its rows met after that go into `residuals`. A bad file
 * undoes the attach with the rest. A month that has rows is replaced row by row. Two imports of one month wait for
 * each other (a transaction-level advisory lock on the month), so neither builds a month the other is building.
 * The bare table is shut to the ISO role (only staff may import residuals; an ISO-bound import would fail closed).
 */
export function residualImport(processor: 'file' | 'TSYS' | 'PPS'): ImportSteps {
  const processorExpr = processor === 'file' ? 'upper(r.c_processor)' : `'${processor}'`;
  // A row with another processor is left for the final check to refuse (it would break the table's own check).
  const knownProcessor = processor === 'file' ? `upper(r.c_processor) in ('TSYS', 'PPS')` : 'true';
  /** The last row_no applied, and the (processor, month) pairs whose old rows are already deleted. */
  let through = 0;
  const replaced = new Set<string>();
  /**
   * Each month seen: `bare` while its rows go to a bare table of its own (named by the database), `attached` once
   * that table is its partition (rows of it met later go to `residuals`, nothing deleted: all its rows are the
   * file's), `live` when it had rows before the file (replaced row by row).
   */
  const state = new Map<string, { bare: string } | 'attached' | 'live'>();
  /** Attaches every month still bare but those of `keep`. */
  const attachBare = async (db: Db, keep = new Set<string>()) => {
    for (const [month, s] of state) {
      if (typeof s !== 'object' || keep.has(month)) continue;
      await sql`select paydesk_residual_attach(${month}::date)`.execute(db);
      state.set(month, 'attached');
    }
  };
  /** Rows of a known processor the apply step found no merchant for (an unknown MID, or one the user may not see). */
  let unmatched = 0;
  /** The first month beyond MAX_RESIDUAL_FILE_MONTHS, and its first row: nothing more is applied, and the file is refused. */
  let overMonths: { month: string; row: number } | null = null;
  const staged = async (db: Db) => {
    if (overMonths) return;
    // The rows staged since the last batch: the last one's number, and how many of them are to be applied.
    const { rows: last } = await sql<{
      upTo: number;
      n: number;
    }>`select coalesce(max(r.row_no), 0)::int as "upTo", (count(*) filter (where ${sql.raw(knownProcessor)}))::int as n
       from import_rows r where r.row_no > ${through}`.execute(db);
    const upTo = last[0]?.upTo ?? 0;
    if (upTo <= through) return;
    const batch = sql`r.row_no > ${through} and r.row_no <= ${upTo} and ${sql.raw(knownProcessor)}`;
    const { rows: months } = await sql<{ processor: string; month: string }>`
      select distinct ${sql.raw(processorExpr)} as processor, r.c_yearmonth::text as month
      from import_rows r where ${batch}`.execute(db);
    // A month written bare that this batch has no row of is most likely complete (files come month by month):
    // it is attached now, while the rest of the file is read, rather than at the end.
    const inBatch = new Set(months.map((m) => m.month));
    const newMonths = [...inBatch].filter((m) => !state.has(m)).sort();
    if (state.size + newMonths.length > MAX_RESIDUAL_FILE_MONTHS) {
      const month = newMonths[MAX_RESIDUAL_FILE_MONTHS - state.size] ?? '';
      const { rows: first } = await sql<{ row: number }>`
        select min(row_no)::int as row from import_rows where c_yearmonth = ${month}::date`.execute(db);
      overMonths = { month, row: first[0]?.row ?? 0 };
      return;
    }
    await attachBare(db, inBatch);
    for (const { processor: p, month } of months) {
      if (!state.has(month)) {
        await sql`select pg_advisory_xact_lock(${RESIDUAL_MONTH_LOCK}, ${monthNumber(month)})`.execute(db);
        const { rows: built } = await sql<{
          bare: string | null;
        }>`select paydesk_residual_build(${month}::date) as bare`.execute(db);
        const bare = built[0]?.bare;
        state.set(month, bare ? { bare } : 'live');
      }
      if (state.get(month) !== 'live' || replaced.has(`${p} ${month}`)) continue;
      await sql`delete from residuals where processor = ${p} and month = ${month}::date`.execute(db);
      replaced.add(`${p} ${month}`);
    }
    // Each row's merchant by its key (a batch is a few thousand rows; hashing every merchant for each would cost
    // more than the lookups). An unknown MID finds none here: it is counted, and refused by the final check.
    // The batch's rows are written in the order of their agent, as a month's rows are kept
    // (2026_12_07_0020_residuals_agent_order): a month read by agent then reads a few pages of each batch.
    const targets = new Map<string, string[]>();
    for (const { month } of months) {
      const s = state.get(month);
      const table = typeof s === 'object' ? s.bare : 'residuals';
      targets.set(table, [...(targets.get(table) ?? []), month]);
    }
    for (const [table, ofMonths] of targets) {
      const inserted = await sql`
        insert into ${sql.table(table)} (partner_id, merchant_id, month, processor, mid, dba, agent, office,
          payout_schedule, payout_to, transactions, volume, income, gross, net, ach_collected_gross,
          ach_collected_payout, ach_collected_net, ach_rejected_gross, ach_rejected_net, refunds_gross,
          refunds_payout, refunds_net, total_gross, total_payout, total_net, income1, expense, profit_loss)
        select m.partner_id, m.id, r.c_yearmonth, ${sql.raw(processorExpr)}, r.c_mid, coalesce(r.c_dba, m.dba),
          r.c_agent, r.c_office, r.c_payoutschedule, r.c_payoutto, ${sql.raw(RESIDUAL_VALUES)}
        from import_rows r
        cross join lateral (select m.id, m.partner_id, m.dba from merchants m where m.mid = r.c_mid offset 0) m
        where ${batch} and r.c_yearmonth = any(${ofMonths}::date[])
        order by r.c_yearmonth, lower(r.c_agent), r.row_no`.execute(db);
      unmatched -= Number(inserted.numAffectedRows ?? 0);
    }
    unmatched += last[0]?.n ?? 0;
    through = upTo;
  };
  return {
    staged,
    /** Applies what is left, then checks the whole file (throws ImportRejected). */
    async finish(db: Db): Promise<void> {
      await staged(db);
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
      await checkMids(
        db,
        processor === 'file' ? ['c_yearmonth', 'upper(c_processor)'] : ['c_yearmonth'],
        unmatched === 0,
      );
      // The file passed: each month still bare becomes its partition (indexes built, merchants checked, totals added).
      await attachBare(db);
      await refreshDerived(db, { table: 'residuals' });
    },
  };
}

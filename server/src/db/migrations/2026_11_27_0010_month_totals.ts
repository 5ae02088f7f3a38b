import type { Kysely } from 'kysely';
import { ISO_ROLE, run, scopeToIso } from './helpers';

/**
 * The month reports' counts and totals (issue 18). First, a month's row count and money totals per ISO, for the two month reports (Self Serve and Residual Self Serve),
 * kept by the writing statement itself as `ach_groups` keeps the ACH returns' (2026_11_25_0020_speed): a
 * statement-level trigger with transition tables adds the inserted rows and takes away the deleted ones, set by
 * set, whichever code writes them (the derived refresh, an import, the seed). A month's page without a filter or
 * search (the first page a user sees, and every deeper page) then sums one row per ISO instead of counting and
 * summing every row of the month (52,000 at the large scale). An ISO-bound user reads only its ISO's totals (row
 * level security, like the rows). A total left without rows is deleted, so a migrated database equals a fresh
 * one.
 */
export interface Kept {
  rows: string;
  totals: string;
  /** The summed columns and their type in the totals table. */
  columns: [string, string][];
}

export const KEPT: Kept[] = [
  {
    rows: 'selfserve_rows',
    totals: 'selfserve_month_totals',
    columns: [
      ['tx_amt', 'numeric(18, 2)'],
      ['tx_cnt', 'bigint'],
      ['cb_amt', 'numeric(18, 2)'],
      ['cb_cnt', 'bigint'],
      ['ref_amt', 'numeric(18, 2)'],
      ['ref_cnt', 'bigint'],
      ['income', 'numeric(18, 2)'],
    ],
  },
  {
    rows: 'residuals',
    totals: 'residual_month_totals',
    columns: [
      ['transactions', 'bigint'],
      ...[
        'volume',
        'income',
        'gross',
        'net',
        'ach_collected_gross',
        'ach_collected_payout',
        'ach_collected_net',
        'ach_rejected_gross',
        'ach_rejected_net',
        'refunds_gross',
        'refunds_payout',
        'refunds_net',
        'total_gross',
        'total_payout',
        'total_net',
        'income1',
        'expense',
        'profit_loss',
      ].map((c): [string, string] => [c, 'numeric(18, 2)']),
    ],
  },
];

/** The signed rows' sums per month and ISO, added to the kept totals (insert, update and delete alike). */
export function addSums(k: Kept, signedRows: string): string {
  const cols = k.columns.map(([c]) => c);
  return `insert into ${k.totals} as t (month, partner_id, n, ${cols.join(', ')})
    select month, partner_id, sum(sign), ${cols.map((c) => `sum(sign * coalesce(${c}, 0))`).join(', ')}
    from (${signedRows}) x
    group by month, partner_id
    order by month, partner_id
    on conflict (month, partner_id) do update
      set n = t.n + excluded.n, ${cols.map((c) => `${c} = t.${c} + excluded.${c}`).join(', ')};`;
}

/**
 * The Self Serve indexes a filter or a sort walks carry the summed columns as well, so a filtered month's count
 * and totals (a range of volume, transactions or income, an ISO name) are read from the index alone, not row by
 * row: at the large scale, 21,000 of a month's 52,000 rows in range are counted and summed in 10 ms.
 */
const COVERING = [
  'selfserve_rows_volume on selfserve_rows (month, tx_amt desc nulls last, merchant_id)\n     include (tx_cnt, cb_amt, cb_cnt, ref_amt, ref_cnt, income)',
  'selfserve_rows_transactions on selfserve_rows (month, tx_cnt desc nulls last, merchant_id)\n     include (tx_amt, cb_amt, cb_cnt, ref_amt, ref_cnt, income)',
  'selfserve_rows_income on selfserve_rows (month, income desc nulls last, merchant_id)\n     include (tx_amt, tx_cnt, cb_amt, cb_cnt, ref_amt, ref_cnt)',
  'selfserve_rows_iso on selfserve_rows (month, lower(groupname) text_pattern_ops)\n     include (tx_amt, tx_cnt, cb_amt, cb_cnt, ref_amt, ref_cnt, income)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(
    db,
    COVERING.flatMap((index) => [`drop index ${index.split(' ')[0]}`, `create index ${index}`]),
  );
  for (const k of KEPT) {
    const fn = `paydesk_${k.totals}`;
    const emptied = `delete from ${k.totals} t where t.n = 0
           and (t.month, t.partner_id) in (select month, partner_id from old_rows);`;
    await run(db, [
      `create table ${k.totals} (
         month date not null,
         partner_id integer not null references partners (id),
         n integer not null,
         ${k.columns.map(([c, type]) => `${c} ${type} not null`).join(',\n         ')},
         primary key (month, partner_id)
       )`,
      addSums(k, `select 1 as sign, * from ${k.rows}`).replace(/on conflict[\s\S]*$/, ''),
      `create function ${fn}() returns trigger language plpgsql security definer
         set search_path = public as $$
       begin
         if tg_op = 'INSERT' then
           ${addSums(k, 'select 1 as sign, * from new_rows')}
         elsif tg_op = 'UPDATE' then
           ${addSums(k, 'select 1 as sign, * from new_rows union all select -1, * from old_rows')}
           ${emptied}
         elsif tg_op = 'DELETE' then
           ${addSums(k, 'select -1 as sign, * from old_rows')}
           ${emptied}
         else
           delete from ${k.totals};
         end if;
         return null;
       end $$`,
      `create trigger ${k.rows}_month_totals_insert after insert on ${k.rows} referencing new table as new_rows
         for each statement execute function ${fn}()`,
      `create trigger ${k.rows}_month_totals_update after update on ${k.rows}
         referencing old table as old_rows new table as new_rows
         for each statement execute function ${fn}()`,
      `create trigger ${k.rows}_month_totals_delete after delete on ${k.rows} referencing old table as old_rows
         for each statement execute function ${fn}()`,
      `create trigger ${k.rows}_month_totals_truncate after truncate on ${k.rows}
         for each statement execute function ${fn}()`,
      `grant select on ${k.totals} to ${ISO_ROLE}`,
      `revoke insert, update, delete on ${k.totals} from ${ISO_ROLE}`,
    ]);
    await scopeToIso(db, k.totals);
  }
}

import type { Kysely } from 'kysely';
import { addSums, KEPT, type Kept } from './2026_11_27_0010_month_totals';
import { definerFunction, ISO_ROLE, PUBLIC_TOKEN_ROLE, run, scopeToIso, statementTriggers } from './helpers';

/**
 * Residuals partitioned by month (issue 18): each month's rows are a table of their own, `residuals_YYYY_MM`, a
 * partition of `residuals` (rows of a month without one land in `residuals_other`, the default partition).
 *
 * Why: a month's residual file (100,000 rows) was written into one table with seven indexes, a foreign key and the
 * month totals' trigger, 50–75 µs a row, most of the import's 8 s. A month that has no rows yet is now filled as a
 * bare table (no index, no key, no trigger: about 3 µs a row) and attached once the file has moved past it
 * (areas/reports/imports.ts): PostgreSQL then builds its indexes in one sort each and checks its merchants in one
 * join (about 1.2 s for 100,000 rows, against 4.4 s row by row). A month that already has rows is replaced row by
 * row, as before.
 *
 * Every query names `residuals`: its row-level security and its grants are the parent's. A partition read by its
 * own name would bypass them, so each partition has row-level security on with no policy and no grant to the ISO
 * or public-token roles (fail-closed). Queries of one month read one partition.
 *
 * The functions are SECURITY DEFINER (the request's role may not create tables), and only their owner may run them
 * (PUBLIC's default right to execute is revoked):
 * - `paydesk_residual_partition(m)`: makes month m's partition if it has none, moving any rows of m out of the
 *   default partition. The seed calls it before it writes a month.
 * - `paydesk_residual_build(m)`: for an import, makes m's bare table and answers its name when m has no rows
 *   anywhere; otherwise it makes sure m has its partition and answers null (the import then replaces rows one by
 *   one).
 * - `paydesk_residual_attach(m)`: attaches m's filled bare table and adds its rows to the month totals (which the
 *   trigger on `residuals` did not see, the rows having been written to the bare table).
 * - `paydesk_residual_statistics(t)`: sets a partition's statistics target (RESIDUAL_STATISTICS); the seed calls it
 *   again after it has made the indexes again.
 *
 * The primary key becomes (id, month): a partitioned table's unique keys include its partition key. Ids still come
 * from the one sequence. Existing rows are moved month by month, each month filled bare and attached, and the month
 * totals are summed again from the moved rows.
 */
function keptOf(rows: string): Kept {
  const kept = KEPT.find((k) => k.rows === rows);
  if (!kept) throw new Error(`The month totals of ${rows} are not defined`);
  return kept;
}
const residualsKept = keptOf('residuals');

/** The indexes of `residuals` (as migrations 0008, 0017, 0019 and 2026_11_25_0020 left them). */
const INDEXES = [
  'residuals_month on residuals (month, processor)',
  'residuals_month_agent_net on residuals (month, lower(agent) text_pattern_ops, total_net)',
  'residuals_month_dba on residuals (month, lower(dba) text_pattern_ops)',
  'residuals_month_mid on residuals (month, lower(mid) text_pattern_ops)',
  'residuals_month_net on residuals (month, total_net desc nulls last, id)',
  'residuals_month_volume on residuals (month, volume desc nulls last, id)',
];

/** plpgsql: the statements that shut a new partition (by its name in `t`) to every role but the owner. */
const SHUT = `execute format('revoke all on %I from ${ISO_ROLE}, ${PUBLIC_TOKEN_ROLE}', t);
      execute format('alter table %I enable row level security', t);`;

/** plpgsql: makes the bare table of month `m` named `t`, with the month's bound as a check (so that attaching it need not scan it). */
const BARE = `execute format('create table %I (like residuals including defaults including constraints)', t);
      execute format('alter table %I add constraint %I check (month = %L::date)', t, t || '_bound', m);
      ${SHUT}`;

/**
 * The statistics target of each month's columns and index expressions. ANALYZE samples 300 rows per point of the
 * target: at PostgreSQL's default (100) it read 30,000 of a month's 50,000 rows, 0.7–0.85 s a month, about a minute
 * for the 69 months of the large scale (the whole unpartitioned table had taken under a second). At 30 a month's
 * sample is 9,000 rows (0.2 s), still far more than its estimates need.
 */
const RESIDUAL_STATISTICS = 30;

/** plpgsql: attaches the bare table `t` as month `m`'s partition, its bound check then dropped (the bound says it). */
const ATTACH = `execute format('alter table residuals attach partition %I for values in (%L)', t, m);
      execute format('alter table %I drop constraint %I', t, t || '_bound');
      perform paydesk_residual_statistics(t);`;

/** plpgsql: refuses a month `m` that is not a first day. */
const FIRST_DAY = `if extract(day from m) <> 1 then raise exception 'not the first day of a month: %', m; end if;`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const fn = definerFunction;
  await run(db, [
    // The table as it was, kept until its rows are moved; its indexes are not needed for that.
    'alter table residuals rename to residuals_unpartitioned',
    ...INDEXES.map((i) => `drop index ${i.split(' ')[0]}`),
    'alter table residuals_unpartitioned rename constraint residuals_pkey to residuals_unpartitioned_pkey',
    `create table residuals (like residuals_unpartitioned including defaults including constraints)
       partition by list (month)`,
    'alter sequence residuals_id_seq owned by residuals.id',
    'alter table residuals add constraint residuals_pkey primary key (id, month)',
    'alter table residuals add constraint residuals_merchant_id_fkey foreign key (merchant_id) references merchants (id)',
    ...INDEXES.map((i) => `create index ${i}`),
    ...statementTriggers('residuals', 'month_totals', 'paydesk_residual_month_totals'),
    `create function paydesk_residual_month_table(m date) returns text language sql immutable
       as $$ select 'residuals_' || to_char(m, 'YYYY_MM') $$`,
    fn(
      'paydesk_residual_statistics',
      't text',
      'void',
      `declare c record;
    begin
      for c in select a.attname from pg_attribute a
               where a.attrelid = to_regclass(t) and a.attnum > 0 and not a.attisdropped loop
        execute format('alter table %I alter column %I set statistics ${RESIDUAL_STATISTICS}', t, c.attname);
      end loop;
      -- The expressions of its indexes (lower(agent) and the like) are sampled too (not a partitioned index's).
      for c in select x.indexrelid::regclass::text as idx, k from pg_index x
                 join pg_class i on i.oid = x.indexrelid and i.relkind = 'i'
                 cross join generate_series(1, x.indnatts) k
               where x.indrelid = to_regclass(t) and x.indkey[k - 1] = 0 loop
        execute format('alter index %s alter column %s set statistics ${RESIDUAL_STATISTICS}', c.idx, c.k);
      end loop;
    end;`,
    ),
    fn(
      'paydesk_residual_partition',
      'm date',
      'void',
      `declare t text := paydesk_residual_month_table(m);
    begin
      ${FIRST_DAY}
      if to_regclass(t) is not null then return; end if;
      ${BARE}
      execute format('with moved as (delete from residuals_other where month = %L::date returning *)
        insert into %I select * from moved', m, t);
      ${ATTACH}
    end;`,
    ),
    fn(
      'paydesk_residual_build',
      'm date',
      'text',
      `declare t text := paydesk_residual_month_table(m);
    begin
      ${FIRST_DAY}
      if to_regclass(t) is not null then
        if not exists (select 1 from pg_inherits where inhrelid = to_regclass(t) and inhparent = 'residuals'::regclass) then
          raise exception '% exists and is not a partition of residuals', t;
        end if;
        return null;
      end if;
      if exists (select 1 from residuals_other where month = m) then
        perform paydesk_residual_partition(m);
        return null;
      end if;
      ${BARE}
      return t;
    end;`,
    ),
    fn(
      'paydesk_residual_attach',
      'm date',
      'void',
      `declare t text := paydesk_residual_month_table(m);
    begin
      ${ATTACH}
      execute format($sums$${addSums(residualsKept, 'select 1 as sign, * from %I').replace(/;\s*$/, '')}$sums$, t);
    end;`,
    ),
    'create table residuals_other partition of residuals default',
    `do $$ declare t text := 'residuals_other'; begin ${SHUT} end $$`,
    "select paydesk_residual_statistics('residuals')",
    "select paydesk_residual_statistics('residuals_other')",
    // Functions run by whoever may execute them, and PUBLIC may by default: only the owner (staff's requests, the
    // seed) makes, attaches or tunes partitions.
    `revoke execute on function paydesk_residual_statistics(text), paydesk_residual_partition(date),
       paydesk_residual_build(date), paydesk_residual_attach(date) from public`,
  ]);
  await scopeToIso(db, 'residuals');
  // The rows, month by month, each month filled bare and attached; the month totals summed again as they go.
  await run(db, [
    'truncate residual_month_totals',
    `do $$
     declare m date;
     begin
       for m in select distinct month from residuals_unpartitioned order by 1 loop
         perform paydesk_residual_build(m);
         execute format('insert into %I select * from residuals_unpartitioned where month = %L::date',
           paydesk_residual_month_table(m), m);
         perform paydesk_residual_attach(m);
       end loop;
     end $$`,
    'drop table residuals_unpartitioned',
  ]);
}

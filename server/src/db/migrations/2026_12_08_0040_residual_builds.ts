import type { Kysely } from 'kysely';
import { addSums, KEPT, type Kept } from './2026_11_27_0010_month_totals';
import { definerFunction, ISO_ROLE, PUBLIC_TOKEN_ROLE, run } from './helpers';

/**
 * A residual month new to the table is built outside the import's transaction, and published by a short one
 * (issue 18: sign-in on the embedded database, whose one connection a transaction holds from begin to commit).
 *
 * Until now a new month's rows were written to a bare table named after the month, inside the import's transaction,
 * and attached at its end, where PostgreSQL built the month's indexes and checked its merchants. Now
 * (areas/reports/imports.ts):
 * - `paydesk_residual_bare(m)` makes a bare table of a name of its own (`residuals_build_<time>_<random>`), when m has
 *   no rows anywhere; the import fills it while the file is read, outside any transaction. Nobody else sees it:
 *   it is no partition, and it is shut to the ISO and public-token roles.
 * - `paydesk_residual_index(t, k)` does step k of making it ready (its key, each index of `residuals`, the merchant
 *   key, the statistics target), one statement each, so that on the embedded database a sign-in can run between
 *   them; false once there is no step k.
 * - `paydesk_residual_publish(t, m)`, in the import's transaction, under the month's lock: when m still has no rows
 *   it renames the table to the month's partition and attaches it (its indexes, key and merchant key already there,
 *   PostgreSQL adopts them instead of building them; the month's bound is a check, so no row is scanned) and adds
 *   its rows to the month totals. It answers false when another import gave m rows meanwhile: the import then
 *   replaces them row by row, as for any month that has rows.
 * - `paydesk_residual_build` and `paydesk_residual_attach`, which built a month under its own name inside the
 *   transaction, are dropped.
 * - `paydesk_residual_drop_build(t)` drops a build table (an import refused, or one whose month was taken), and
 *   `paydesk_residual_drop_stale_builds()` those left by a server stopped in the middle of an import (the server
 *   calls it when it starts; a build older than an hour belongs to no import under way).
 */
function residualsKept(): Kept {
  const kept = KEPT.find((k) => k.rows === 'residuals');
  if (!kept) throw new Error('The month totals of residuals are not defined');
  return kept;
}

const BUILD_PREFIX = 'residuals_build_';
/** A build table's name: the prefix, its UTC time (YYYYMMDDHH24MISS) and 12 random hex digits. */
const BUILD_NAME = `^${BUILD_PREFIX}[0-9]{14}_[0-9a-f]{12}$`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const fn = definerFunction;
  /** plpgsql: refuses a `t` that is not a build table. */
  const isBuild = `if t !~ '${BUILD_NAME}' then
        raise exception 'not a residual build table: %', t;
      end if;`;
  await run(db, [
    fn(
      'paydesk_residual_bare',
      'm date',
      'text',
      `declare t text := '${BUILD_PREFIX}' || to_char(clock_timestamp() at time zone 'UTC', 'YYYYMMDDHH24MISS') || '_'
                         || substr(md5(random()::text || clock_timestamp()::text), 1, 12);
    begin
      if extract(day from m) <> 1 then raise exception 'not the first day of a month: %', m; end if;
      if to_regclass(paydesk_residual_month_table(m)) is not null
         or exists (select 1 from residuals_other where month = m) then
        return null;
      end if;
      execute format('create table %I (like residuals including defaults including constraints)', t);
      execute format('alter table %I add constraint %I check (month = %L::date)', t, t || '_bound', m);
      execute format('revoke all on %I from ${ISO_ROLE}, ${PUBLIC_TOKEN_ROLE}', t);
      execute format('alter table %I enable row level security', t);
      return t;
    end;`,
    ),
    fn(
      'paydesk_residual_index',
      't text, k int',
      'boolean',
      `declare
      -- Its indexes and keys are named rb_<its random part>_…, and renamed after the month when it is published.
      pre text := 'rb_' || right(t, 12) || '_';
      names text[];
      defs text[];
      n int;
    begin
      ${isBuild}
      -- The indexes of residuals, as partitioned indexes ("CREATE INDEX residuals_month ON ONLY public.residuals
      -- USING …"), each made on t under its name without "residuals_".
      select array_agg(i.relname::text order by i.relname),
             array_agg(regexp_replace(pg_get_indexdef(x.indexrelid),
                         '^CREATE (UNIQUE )?INDEX \\S+ ON ONLY \\S+ ',
                         'CREATE \\1INDEX ' || quote_ident(pre || substr(i.relname, 11)) || ' ON ' || quote_ident(t) || ' ')
                       order by i.relname)
        into names, defs
        from pg_index x join pg_class i on i.oid = x.indexrelid
        where x.indrelid = 'residuals'::regclass and not x.indisprimary;
      n := coalesce(array_length(defs, 1), 0);
      if k = 0 then
        execute format('alter table %I add constraint %I primary key (id, month)', t, pre || 'pkey');
      elsif k <= n then
        if left(names[k], 10) <> 'residuals_' then raise exception 'unexpected index name %', names[k]; end if;
        execute defs[k];
      elsif k = n + 1 then
        execute format('alter table %I add constraint %I foreign key (merchant_id) references merchants (id)',
          t, pre || 'merchant_id_fkey');
      elsif k = n + 2 then
        perform paydesk_residual_statistics(t);
      else
        return false;
      end if;
      return true;
    end;`,
    ),
    fn(
      'paydesk_residual_publish',
      't text, m date',
      'boolean',
      `declare
      p text := paydesk_residual_month_table(m);
      pre text := 'rb_' || right(t, 12) || '_';
      c record;
    begin
      ${isBuild}
      -- The month's lock, as the import takes it (RESIDUAL_MONTH_LOCK in areas/reports/imports.ts).
      perform pg_advisory_xact_lock(180201, (extract(year from m) * 12 + extract(month from m) - 1)::int);
      if to_regclass(p) is not null or exists (select 1 from residuals_other where month = m) then
        return false;
      end if;
      execute format('alter table %I rename to %I', t, p);
      -- Its indexes and keys, named after the month as the others are.
      for c in select i.relname from pg_index x join pg_class i on i.oid = x.indexrelid
               where x.indrelid = to_regclass(p) and left(i.relname, 16) = pre loop
        execute format('alter index %I rename to %I', c.relname, p || '_' || substr(c.relname, 17));
      end loop;
      execute format('alter table %I rename constraint %I to %I', p, pre || 'merchant_id_fkey', p || '_merchant_id_fkey');
      execute format('alter table residuals attach partition %I for values in (%L)', p, m);
      execute format('alter table %I drop constraint %I', p, t || '_bound');
      execute format($sums$${addSums(residualsKept(), 'select 1 as sign, * from %I').replace(/;\s*$/, '')}$sums$, p);
      return true;
    end;`,
    ),
    fn(
      'paydesk_residual_drop_build',
      't text',
      'void',
      `begin
      ${isBuild}
      execute format('drop table if exists %I', t);
    end;`,
    ),
    fn(
      'paydesk_residual_drop_stale_builds',
      '',
      'integer',
      `declare
      t text;
      n integer := 0;
    begin
      for t in select c.relname from pg_class c
               where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace
                 and c.relname ~ '${BUILD_NAME}'
                 -- The name's time (UTC) sorts as text.
                 and substr(c.relname, ${BUILD_PREFIX.length + 1}, 14)
                     < to_char((clock_timestamp() - interval '1 hour') at time zone 'UTC', 'YYYYMMDDHH24MISS')
                 and not exists (select 1 from pg_inherits i where i.inhrelid = c.oid) loop
        execute format('drop table %I', t);
        n := n + 1;
      end loop;
      return n;
    end;`,
    ),
    // The import no longer builds under the month's own name, nor attaches apart from publishing.
    'drop function paydesk_residual_build(date)',
    'drop function paydesk_residual_attach(date)',
    `revoke execute on function paydesk_residual_bare(date), paydesk_residual_index(text, int),
       paydesk_residual_publish(text, date), paydesk_residual_drop_build(text),
       paydesk_residual_drop_stale_builds() from public`,
  ]);
}

import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../connect';
import { BI_ROLLUPS } from '../derived';
import { WRITE_QUEUE_FUNCTION } from '../migrations/helpers';

/**
 * The tables the seed fills with most rows, or rewrites whole (ach_returns): loaded without their secondary
 * indexes and foreign keys, which are made once after the load. Maintaining a dozen indexes row by row and
 * checking each row's foreign keys costs more than building the index from the finished table in one sort and
 * validating each key in one join.
 */
export const BULK_TABLES = [
  'merchants',
  'applications',
  'merchant_daily',
  'merchant_monthly',
  'merchant_income',
  'residuals',
  'adjustments',
  'selfserve_rows',
  'activity_rollup',
  'processing_daily',
  'deal_income',
  'ach_debit_entries',
  'ach_returns',
  'ach_reserves',
] as const;

/**
 * The tables the staged seed's derived stage fills (rollups, Self Serve rows): given new storage in that stage's
 * transaction, as the first stage's are in its own.
 */
export const DERIVED_BULK_TABLES: readonly string[] = [
  'selfserve_rows',
  'activity_rollup',
  'processing_daily',
  'deal_income',
  ...BI_ROLLUPS,
];

/** BULK_TABLES that hold records (not derived from them): the staged seed makes their indexes while it derives. */
export const SOURCE_BULK_TABLES = BULK_TABLES.filter((t) => !DERIVED_BULK_TABLES.includes(t));

/** The tables the staged seed's ACH stage fills. */
export const ACH_BULK_TABLES = ['ach_debit_entries', 'ach_returns', 'ach_reserves'] as const;

interface Deferred {
  table: string;
  name: string;
  /** The statement that makes it again. */
  create: string;
}

/**
 * Makes the deferred indexes and foreign keys of the tables named again, in the transaction they were dropped
 * in, or in `on` (the staged seed's later transaction, once the drops are committed).
 */
export type RestoreIndexes = (tables: readonly string[], on?: Db) => Promise<void>;

/**
 * Drops the plain (not unique) indexes and the foreign keys of `tables` and answers a function that makes a
 * table's again, exactly as they were: the seed restores a table's before its first query that wants them.
 * Only for the seed of an empty database, inside its transaction: a failed seed rolls the drops back with the
 * rows (the staged seed commits them, and makes them again in a later stage). Unique indexes and primary keys
 * stay: they guard the load and `on conflict` relies on them.
 */
export async function deferIndexes(db: Db, tables: readonly string[]): Promise<RestoreIndexes> {
  const { rows: indexes } = await sql<Deferred>`
    select c.relname as "table", i.relname as name, pg_get_indexdef(x.indexrelid) as "create"
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class c on c.oid = x.indrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname = any(${[...tables]}::text[]) and not x.indisunique
      and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid)
    order by c.relname, i.relname`.execute(db);
  const { rows: keys } = await sql<Deferred>`
    select c.relname as "table", k.conname as name,
           format('alter table %I add constraint %I %s', c.relname, k.conname, pg_get_constraintdef(k.oid)) as "create"
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname = any(${[...tables]}::text[]) and k.contype = 'f'
    order by c.relname, k.conname`.execute(db);
  for (const k of keys)
    await sql`alter table ${sql.table(k.table)} drop constraint ${sql.id(k.name)}`.execute(db);
  for (const i of indexes) await sql`drop index ${sql.id(i.name)}`.execute(db);
  // A partitioned table's index is defined "ON ONLY" the parent (each partition's index attached to it later); made
  // again, it must be made on every partition as well.
  for (const i of indexes) i.create = i.create.replace(/ ON ONLY /, ' ON ');
  const pending = [...indexes, ...keys];
  return async (restore, on = db) => {
    // Index builds sort in memory up to maintenance_work_mem; the server's default (64 MB) spills to disk.
    await sql`set local maintenance_work_mem = '512MB'`.execute(on);
    for (const d of pending.filter((x) => restore.includes(x.table))) await sql.raw(d.create).execute(on);
    pending.splice(0, pending.length, ...pending.filter((x) => !restore.includes(x.table)));
  };
}

/**
 * Gives those of `tables` that are empty and that no foreign key references new storage (TRUNCATE), inside the
 * seed's transaction. On a PostgreSQL server with `wal_level = minimal` (the bench's own cluster, see
 * scripts/bench.sh), rows written into storage made in the same transaction are not written to the WAL as well:
 * the files are synced once at commit (PostgreSQL's "Populating a Database"). Elsewhere it changes nothing. A
 * failed seed rolls the truncation back with the rows. Answers the tables truncated.
 */
export async function freshStorage(db: Db, tables: readonly string[]): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    select c.relname as "table" from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname = any(${[...tables]}::text[]) and c.relkind = 'r'
      and not exists (select 1 from pg_constraint k where k.contype = 'f' and k.confrelid = c.oid)
    order by c.relname`.execute(db);
  const empty: string[] = [];
  for (const { table } of rows) {
    const { rows: found } = await sql<{
      present: boolean;
    }>`select exists (select 1 from ${sql.table(table)}) as present`.execute(db);
    if (!found[0]?.present) empty.push(table);
  }
  if (empty.length > 0) await sql`truncate ${sql.join(empty.map((t) => sql.table(t)))}`.execute(db);
  return empty;
}

/**
 * The staged seed's tables kept from autovacuum while it loads them, given back at the end (releaseAutovacuum):
 * once the first stage commits its millions of rows, autovacuum would analyse and vacuum them beside the later
 * stages, changing their plans halfway and taking a share of the two cores. The seed ends with its own `vacuum
 * analyze`. Only tables that set no autovacuum option of their own are touched (not the residual months the seed
 * makes later, which autovacuum may visit); answers their names.
 */
export async function holdAutovacuum(db: Db): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    select c.relname as "table" from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r'
      and not exists (select 1 from unnest(coalesce(c.reloptions, '{}')) o where o like 'autovacuum_enabled=%')
    order by c.relname`.execute(db);
  for (const { table } of rows)
    await sql`alter table ${sql.table(table)} set (autovacuum_enabled = off)`.execute(db);
  return rows.map((r) => r.table);
}

/** Gives autovacuum back the tables holdAutovacuum answered (those that still exist: not seed_params). */
export async function releaseAutovacuum(db: Db, held: readonly string[]): Promise<void> {
  const { rows } = await sql<{ table: string }>`
    select t as "table" from unnest(${[...held]}::text[]) t where to_regclass(t) is not null`.execute(db);
  for (const { table } of rows)
    await sql`alter table ${sql.table(table)} reset (autovacuum_enabled)`.execute(db);
}

/** A trigger the staged seed holds off while it loads (holdTriggers). */
export interface HeldTrigger {
  table: string;
  name: string;
}

/**
 * The staged seed's triggers that only count writes for the kept answers (`paydesk_bump_answer_version`: one row of
 * answer_versions per answer, which every transaction writing its tables would wait on until the other commits),
 * the write queue (`paydesk_queue_writes`, migration 2026_12_15_0010: one lock that would run the stages' writers one
 * at a time; the stages write different tables and refresh nothing) and the bonus rows' daily volumes (no bonus row
 * exists while the activity loads): disabled while it loads (answers those it disabled; releaseTriggers enables
 * them). Triggers that keep tables or parts in step stay on.
 */
export async function holdTriggers(db: Db): Promise<HeldTrigger[]> {
  return disableTriggers(
    db,
    sql`p.proname in ('paydesk_bump_answer_version', ${WRITE_QUEUE_FUNCTION})
      or (c.relname = 'merchant_daily' and t.tgname = 'merchant_daily_bonus_days_insert')`,
  );
}

/** Disables this schema's enabled triggers that `which` picks (over `t` pg_trigger, `c` its table, `p` its function). */
async function disableTriggers(db: Db, which: RawBuilder<unknown>): Promise<HeldTrigger[]> {
  const { rows } = await sql<HeldTrigger>`
    select c.relname as "table", t.tgname as name from pg_trigger t
    join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_proc p on p.oid = t.tgfoid
    where n.nspname = current_schema() and not t.tgisinternal and t.tgenabled = 'O' and (${which})
    order by 1, 2`.execute(db);
  for (const t of rows)
    await sql`alter table ${sql.table(t.table)} disable trigger ${sql.id(t.name)}`.execute(db);
  return rows;
}

/**
 * The triggers that keep rows of an answer per merchant or per approval (`activation_rows`, migration
 * 2026_12_18_0010; `approval_rows`, 2026_12_18_0020): each statement loading merchants, applications or their figures
 * would work out the rows of every one it names. Disabled while the seed loads (answers those it disabled);
 * keepEveryKeptRow then writes every row once.
 */
export async function holdKeptRowTriggers(db: Db): Promise<HeldTrigger[]> {
  return disableTriggers(
    db,
    sql`p.proname like 'paydesk\\_activation\\_keep\\_%' or p.proname like 'paydesk\\_approval\\_keep\\_%'`,
  );
}

/** Enables the triggers holdKeptRowTriggers answered, and writes every kept row once. */
export async function keepEveryKeptRow(db: Db, held: readonly HeldTrigger[]): Promise<void> {
  await releaseTriggers(db, held);
  await sql`select paydesk_activation_keep(null)`.execute(db);
  await sql`select paydesk_approval_keep(null)`.execute(db);
}

/** Enables again the triggers holdTriggers answered. */
export async function releaseTriggers(db: Db, held: readonly HeldTrigger[]): Promise<void> {
  for (const t of held)
    await sql`alter table ${sql.table(t.table)} enable trigger ${sql.id(t.name)}`.execute(db);
}

/**
 * `vacuum analyze` of every table on two connections at once, the largest tables first, each to whichever
 * connection is free (as `vacuumdb --jobs 2`): a vacuum reads one table on one core. A PostgreSQL server only.
 * `changedOnly`: the tables written since they were last analysed (by the statistics the server keeps, flushed
 * by the writer: flushStatistics).
 */
export async function vacuumAnalyzeOnTwo(db: Db, options: { changedOnly?: boolean } = {}): Promise<void> {
  const { rows } = await sql<{ table: string }>`
    select c.relname as "table" from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
      and (not ${options.changedOnly === true} or exists (
        select 1 from pg_stat_user_tables s
        where (s.relid = c.oid or s.relid in (select i.inhrelid from pg_inherits i where i.inhparent = c.oid))
          and (s.n_mod_since_analyze > 0 or coalesce(s.last_analyze, s.last_autoanalyze) is null)))
    order by coalesce((select sum(pg_total_relation_size(i.inhrelid)) from pg_inherits i where i.inhparent = c.oid), 0)
             + pg_total_relation_size(c.oid) desc, c.relname`.execute(db);
  const queue = rows.map((r) => r.table);
  const worker = async () => {
    for (let table = queue.shift(); table !== undefined; table = queue.shift())
      await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  };
  // Both run to their end before a failure is thrown: no vacuum is left running unawaited.
  const ends = await Promise.allSettled([worker(), worker()]);
  for (const end of ends) if (end.status === 'rejected') throw end.reason;
}

/**
 * Makes this connection's counts of rows written visible to other connections now (PostgreSQL 15 and later keep
 * them in the backend for up to a second or more). Answers false where the server cannot (older servers).
 */
export async function flushStatistics(db: Db): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`
    select exists (select 1 from pg_proc where proname = 'pg_stat_force_next_flush') as present`.execute(db);
  if (!rows[0]?.present) return false;
  await sql`select pg_stat_force_next_flush()`.execute(db);
  return true;
}

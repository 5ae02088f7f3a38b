import { sql } from 'kysely';
import type { Db } from '../connect';

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

interface Deferred {
  table: string;
  name: string;
  /** The statement that makes it again. */
  create: string;
}

/** Makes the deferred indexes and foreign keys of the tables named again. */
export type RestoreIndexes = (tables: readonly string[]) => Promise<void>;

/**
 * Drops the plain (not unique) indexes and the foreign keys of `tables` and answers a function that makes a
 * table's again, exactly as they were: the seed restores a table's before its first query that wants them.
 * Only for the seed of an empty database, inside its transaction: a failed seed rolls the drops back with the
 * rows. Unique indexes and primary keys stay: they guard the load and `on conflict` relies on them.
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
  return async (restore) => {
    // Index builds sort in memory up to maintenance_work_mem; the server's default (64 MB) spills to disk.
    await sql`set local maintenance_work_mem = '512MB'`.execute(db);
    for (const d of pending.filter((x) => restore.includes(x.table))) await sql.raw(d.create).execute(db);
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

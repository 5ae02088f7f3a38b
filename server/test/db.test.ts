import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/connect';
import { migrateToLatest } from '../src/db/migrate';
import { migratedDatabase, type TestApp, testApp } from './helpers';

let t: TestApp;
/** A database that has only been through the migrations, as a new installation starts. */
let fresh: Awaited<ReturnType<typeof migratedDatabase>>;
beforeAll(async () => {
  [t, fresh] = await Promise.all([testApp(), migratedDatabase()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), fresh?.close()]);
});

/** Everything the migrations define, as sorted text: tables, columns, constraints, indexes, views, row security. */
async function schemaOf(db: Db): Promise<string[]> {
  const { rows } = await sql<{ item: string }>`
    select concat_ws(' ', 'column', table_name, column_name, data_type, is_nullable, column_default) as item
      from information_schema.columns where table_schema = 'public'
    union all
    select concat_ws(' ', 'constraint', conrelid::regclass::text, conname, pg_get_constraintdef(oid))
      from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select concat_ws(' ', 'index', indexname, indexdef) from pg_indexes where schemaname = 'public'
    union all
    select concat_ws(' ', 'relation', relname, relkind, relrowsecurity, relforcerowsecurity)
      from pg_class where relnamespace = 'public'::regnamespace
    union all
    select concat_ws(' ', 'view', viewname, definition) from pg_views where schemaname = 'public'
    union all
    select concat_ws(' ', 'policy', tablename, policyname, permissive, roles::text, cmd, qual, with_check)
      from pg_policies where schemaname = 'public'
    union all
    select concat_ws(' ', 'grant', table_name, grantee, privilege_type)
      from information_schema.role_table_grants where table_schema = 'public'
    union all
    select concat_ws(' ', 'function', p.proname, pg_get_functiondef(p.oid))
      from pg_proc p where p.pronamespace = 'public'::regnamespace
    union all
    select concat_ws(' ', 'trigger', tgrelid::regclass::text, tgname, pg_get_triggerdef(oid))
      from pg_trigger where not tgisinternal
    union all
    select concat_ws(' ', 'migration', name) from kysely_migration`.execute(db);
  return rows.map((r) => r.item).sort();
}

describe('database', () => {
  it('returns the same JSON shapes from PGlite and PostgreSQL', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select count(*) as n, 12.50::numeric(10, 2) as money, '2024-02-29'::date as day,
             '2024-02-29T10:00:00Z'::timestamptz as at, 9007199254740::int8 as big`.execute(t.db);
    expect(rows[0]).toEqual({
      n: 1,
      money: '12.50',
      day: '2024-02-29',
      at: new Date('2024-02-29T10:00:00Z'),
      big: 9007199254740,
    });
  });

  it('runs without JIT compilation (on PostgreSQL it compiled the demo seed for minutes)', async () => {
    const { rows } = await sql<{ compiles: boolean }>`
      select current_setting('jit') = 'on' and pg_jit_available() as compiles`.execute(t.db);
    // PGlite has no JIT provider; a PostgreSQL server's connections must have it off.
    expect(rows[0]?.compiles).toBe(false);
  });

  it('a seeded database, migrated again at start-up, has exactly the schema of a fresh installation', async () => {
    await migrateToLatest(t.db);
    const schema = await schemaOf(t.db);
    expect(schema.filter((item) => item.startsWith('policy ')).length).toBeGreaterThan(0);
    expect(schema).toEqual(await schemaOf(fresh.db));
  });

  it('keeps e-mails lower-case in the database itself', async () => {
    await expect(
      t.db
        .insertInto('users')
        .values({ email: 'Upper@PayDesk.local', department: 'sales', password_hash: 'x' })
        .execute(),
    ).rejects.toThrow();
  });
});

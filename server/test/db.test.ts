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

/**
 * A month's partition of residuals (`residuals_2026_09`, its indexes and constraints): made by the seed and the
 * imports, not by the migrations. reports.test.ts checks that each is shaped and shut as the migration says.
 */
const MONTH_PARTITION = /\bresiduals_\d{4}_\d{2}/;

/**
 * Everything the migrations define, as sorted text: tables, columns, constraints, indexes, views, row security
 * (not the residual months' partitions).
 */
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
  return rows
    .map((r) => r.item)
    .filter((item) => !MONTH_PARTITION.test(item))
    .sort();
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

  it("names a moment's day in UTC, whatever the server's own time zone", async () => {
    // The test cluster keeps Pacific/Auckland (scripts/with-test-postgres.sh), where 23:30 UTC is the next day.
    const { rows } = await sql<{ zone: string; day: string; today: boolean }>`
      select current_setting('TimeZone') as zone, '2024-02-29T23:30:00Z'::timestamptz::date::text as day,
             current_date = (now() at time zone 'UTC')::date as today`.execute(t.db);
    expect(rows[0]).toEqual({ zone: 'UTC', day: '2024-02-29', today: true });
  });

  it('a seeded database, migrated again at start-up, has exactly the schema of a fresh installation', async () => {
    await migrateToLatest(t.db);
    const schema = await schemaOf(t.db);
    expect(schema.filter((item) => item.startsWith('policy ')).length).toBeGreaterThan(0);
    expect(schema).toEqual(await schemaOf(fresh.db));
  });

  it('moves the residuals of a database made before they were partitioned by month, row for row', async () => {
    const old = await migratedDatabase('2026_12_01_0010_pci_merchants_dba');
    try {
      await sql`insert into mcc_codes (code, description) values ('5999', 'Miscellaneous')
        on conflict do nothing`.execute(old.db);
      await sql`insert into partners (id, account_name, account_id) values (1, 'Alpha ISO', 'A1'), (2, 'Beta ISO', 'B2')`.execute(
        old.db,
      );
      await sql`insert into groups (group_id, group_name, group_sf_id, partner_id, rev_share, effective_date)
        values ('G1', 'Alpha 1', 'sf1', 1, 0.5, '2024-01-01'), ('G2', 'Beta 1', 'sf2', 2, 0.4, '2024-01-01')`.execute(
        old.db,
      );
      await sql`insert into merchants (mid, dba, legal_name, partner_id, group_id, profile, sponsor_bank, mcc, status,
          opened_on, approved_on)
        select 'M' || i, 'Shop ' || i, 'Shop ' || i || ' LLC', 1 + i % 2, 'G' || (1 + i % 2), 'Traditional', 'CBCAL',
          '5999', 'Open', '2024-01-01', '2024-01-01'
        from generate_series(1, 40) i`.execute(old.db);
      // Three months of rows (one of them with a hole where rows were deleted), written as the old table took them.
      await sql`insert into residuals (partner_id, merchant_id, month, processor, mid, dba, agent, transactions,
          volume, income, gross, net, total_gross, total_payout, total_net, expense, profit_loss, refunds_net)
        select m.partner_id, m.id, mo, case when m.id % 3 = 0 then 'PPS' else 'TSYS' end, m.mid, m.dba, 'Agent ' || m.id % 4,
          m.id, m.id * 101.25, m.id * 1.5, m.id * 2.25, m.id * 1.75, m.id * 3, m.id * 0.5, m.id * 2.5 - 20, 4.5, m.id - 7,
          case when m.id % 5 = 0 then null else -m.id * 0.1 end
        from merchants m cross join (values (date '2026-06-01'), (date '2026-07-01'), (date '2026-08-01')) v(mo)
        order by mo, m.id`.execute(old.db);
      await sql`delete from residuals where month = '2026-07-01' and merchant_id % 4 = 0`.execute(old.db);
      const rowsOf = async () =>
        (
          await sql<{ sum: string; n: number; last: number }>`
            select md5(string_agg(to_jsonb(r)::text, '|' order by r.id)) as sum, count(*)::int as n, max(id)::int as last
            from residuals r`.execute(old.db)
        ).rows[0];
      const before = await rowsOf();
      expect(before?.n).toBe(110);

      await migrateToLatest(old.db);

      expect(await rowsOf()).toEqual(before);
      const { rows: homes } = await sql<{ month: string; home: string; n: number }>`
        select to_char(month, 'YYYY-MM') as month, tableoid::regclass::text as home, count(*)::int as n
        from residuals group by 1, 2 order by 1`.execute(old.db);
      expect(homes).toEqual([
        { month: '2026-06', home: 'residuals_2026_06', n: 40 },
        { month: '2026-07', home: 'residuals_2026_07', n: 30 },
        { month: '2026-08', home: 'residuals_2026_08', n: 40 },
      ]);
      // The month totals, summed again from the moved rows, equal plain sums of them.
      const { rows: totals } = await sql`
        select month, partner_id, n, total_net, volume, refunds_net from residual_month_totals order by 1, 2`.execute(
        old.db,
      );
      const { rows: sums } = await sql`
        select month, partner_id, count(*)::int as n, sum(total_net)::numeric(18, 2) as total_net,
          sum(volume)::numeric(18, 2) as volume, coalesce(sum(refunds_net), 0)::numeric(18, 2) as refunds_net
        from residuals group by 1, 2 order by 1, 2`.execute(old.db);
      expect(totals).toEqual(sums);
      // New rows take ids after the old ones, and the kept totals follow them.
      await sql`insert into residuals (partner_id, merchant_id, month, processor, mid, dba, transactions, volume, income,
          gross, net, total_gross, total_payout, total_net, expense, profit_loss)
        select partner_id, id, '2026-08-01', 'TSYS', mid, dba, 1, 10, 1, 1, 1, 1, 1, 1, 1, 1 from merchants where id = 1`.execute(
        old.db,
      );
      const { rows: added } = await sql<{ id: number; n: number }>`
        select max(r.id)::int as id, (select n from residual_month_totals where month = '2026-08-01' and partner_id = 2) as n
        from residuals r`.execute(old.db);
      expect(added[0]?.id).toBeGreaterThan(before?.last ?? 0);
      expect(added[0]?.n).toBe(21);
    } finally {
      await old.close();
    }
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

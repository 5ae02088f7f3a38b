import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connected, Db } from '../src/db/connect';
import { holdKeptRowTriggers, keepEveryKeptRow } from '../src/db/seed/bulk';
import { generateMerchantData } from '../src/db/seed/generate';
import { decryptPii } from '../src/platform/pii';
import { useTestPiiKey } from './databases';
import { migratedDatabase } from './helpers';

/**
 * The staged seed (generateMerchantData with `staged`: its stages committed one by one, two at once on two
 * connections of a PostgreSQL server) against the seed in one transaction: the same rows in every table, the same
 * indexes, keys, triggers and table options. The oracle is the one-transaction seed, compared table by table
 * from the catalog, not from the seed's own list of what it writes.
 */
const TODAY = new Date('2026-11-20T15:00:00Z');
const onServer = Boolean(process.env.TEST_DATABASE_URL);

let oneTransaction: Connected;
let staged: Connected;
beforeAll(async () => {
  useTestPiiKey();
  [oneTransaction, staged] = await Promise.all([migratedDatabase(), migratedDatabase()]);
});
afterAll(async () => {
  await Promise.all([oneTransaction?.close(), staged?.close()]);
});

/** Counters of writes (cache keys), not data: how many statements raised them differs with the stages. */
const COUNTERS = new Set(['answer_versions']);
/** The migrations' own clock (the two databases were migrated at different instants). */
const CLOCK_COLUMNS = new Set(['kysely_migration.timestamp']);
/** Encrypted with a random IV each time: compared decrypted (below). */
const ENCRYPTED = new Set(['pci_merchants.aba_number', 'pci_merchants.dda_number']);

/**
 * Every table's rows as sorted text, one digest per table (partitions under their parent), without the columns
 * that hold the instant a row was written (a default of now()) or a ciphertext.
 */
async function contents(db: Db): Promise<Record<string, string>> {
  const { rows: columns } = await sql<{ table: string; column: string; clock: boolean }>`
    select c.relname as "table", a.attname as "column",
           coalesce(pg_get_expr(d.adbin, d.adrelid) ~ 'now\(\)|CURRENT_TIMESTAMP', false) as clock
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname, a.attnum`.execute(db);
  const kept = new Map<string, string[]>();
  for (const c of columns) {
    const name = `${c.table}.${c.column}`;
    if (!kept.has(c.table)) kept.set(c.table, []);
    if (!c.clock && !CLOCK_COLUMNS.has(name) && !ENCRYPTED.has(name)) kept.get(c.table)?.push(c.column);
  }
  const out: Record<string, string> = {};
  for (const [table, names] of kept) {
    if (COUNTERS.has(table)) continue;
    const { rows } = await sql<{ n: number; digest: string | null }>`
      select count(*)::int as n, md5(string_agg(r, E'\n' order by r)) as digest
      from (select row(${sql.join(names.map((c) => sql.ref(`t.${c}`)))})::text as r
            from ${sql.table(table)} t) x`.execute(db);
    out[table] = `${rows[0]?.n} ${rows[0]?.digest ?? ''}`;
  }
  // The part versions' names and parts (which parts exist), not their counts.
  const { rows: parts } = await sql<{ digest: string }>`
    select md5(string_agg(name || ' ' || part, E'\n' order by name, part)) as digest
    from answer_part_versions`.execute(db);
  out.answer_part_versions = parts[0]?.digest ?? '';
  // The bank numbers, decrypted.
  const pci = await db
    .selectFrom('pci_merchants')
    .select(['merchant_id', 'aba_number', 'dda_number'])
    .orderBy('merchant_id')
    .execute();
  out['pci_merchants (bank numbers)'] = pci
    .map((r) => `${r.merchant_id} ${open(r.aba_number)} ${open(r.dda_number)}`)
    .join('\n');
  return out;
}

const open = (stored: string | null) => (stored === null ? '' : decryptPii(stored));

/** Indexes, constraints, triggers (with their enabled state) and table options, as sorted text. */
async function catalog(db: Db): Promise<string[]> {
  const { rows } = await sql<{ item: string }>`
    select 'index ' || indexdef as item from pg_indexes where schemaname = current_schema()
    union all
    select format('constraint %s %s %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = current_schema()
    union all
    select format('trigger %s %s %s', t.tgrelid::regclass, t.tgname, t.tgenabled)
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and not t.tgisinternal
    union all
    select format('options %s %s', c.relname, c.reloptions) from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.reloptions is not null
    order by 1`.execute(db);
  return rows.map((r) => r.item);
}

describe('the staged seed', () => {
  it.skipIf(!onServer)(
    'writes the same rows, indexes, keys, triggers and options as the seed in one transaction',
    async () => {
      const reports = await Promise.all([
        generateMerchantData(oneTransaction.db, { scale: 'test', today: TODAY }),
        generateMerchantData(staged.db, { scale: 'test', today: TODAY, staged: true }),
      ]);
      expect(reports[1].merchants).toBe(reports[0].merchants);
      const [expected, actual] = await Promise.all([contents(oneTransaction.db), contents(staged.db)]);
      // The comparison has something to compare: the seeded tables hold rows.
      expect(expected.merchant_daily).toMatch(/^[1-9]\d{3,} /);
      expect(expected.bonus_rows).toMatch(/^[1-9]\d* /);
      expect(expected.ach_returns).toMatch(/^[1-9]\d* /);
      expect(expected.pci_merchants).toMatch(/^[1-9]\d* /);
      expect(expected.bi_group_daily).toMatch(/^[1-9]\d* /);
      expect(actual).toEqual(expected);
      const [expectedCatalog, actualCatalog] = await Promise.all([
        catalog(oneTransaction.db),
        catalog(staged.db),
      ]);
      expect(actualCatalog).toEqual(expectedCatalog);
      expect(actualCatalog.some((i) => i.includes('autovacuum'))).toBe(false);
    },
    240_000,
  );

  it('holds every trigger that keeps rows per merchant or per approval while it loads, and gives them back', async () => {
    const db = oneTransaction.db;
    // The oracle: the triggers whose function writes activation_rows or approval_rows, found from the functions'
    // own text, not from the seed's pattern.
    const { rows: keepers } = await sql<{ item: string }>`
      select format('%s %s', c.relname, t.tgname) as item from pg_trigger t
      join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
      where not t.tgisinternal and p.prosrc ~ 'paydesk_(activation|approval)_keep\\('
      order by 1`.execute(db);
    expect(keepers.length).toBeGreaterThanOrEqual(8);
    const enabled = async (on: Db) =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pg_trigger t join pg_proc p on p.oid = t.tgfoid
          where t.tgenabled = 'O' and p.prosrc ~ 'paydesk_(activation|approval)_keep\\('`.execute(on)
      ).rows[0]?.n;
    await db.transaction().execute(async (trx) => {
      const held = await holdKeptRowTriggers(trx);
      expect(held.map((h) => `${h.table} ${h.name}`).sort()).toEqual(keepers.map((k) => k.item));
      expect(await enabled(trx)).toBe(0);
      await keepEveryKeptRow(trx, held);
    });
    expect(await enabled(db)).toBe(keepers.length);
  });

  it('refuses a database that already holds merchant data (a seed stopped halfway), and changes nothing', async () => {
    const db = onServer ? staged.db : oneTransaction.db;
    if (!(await db.selectFrom('partners').select('id').limit(1).executeTakeFirst()))
      await generateMerchantData(db, { scale: 'test', today: TODAY, staged: onServer });
    await sql`delete from demo_state`.execute(db);
    const before = await contents(db);
    await expect(generateMerchantData(db, { scale: 'test', today: TODAY, staged: onServer })).rejects.toThrow(
      /an earlier seed stopped before it finished/,
    );
    expect(await contents(db)).toEqual(before);
  }, 240_000);
});

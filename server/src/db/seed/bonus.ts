import { type BonusWindow, dueWindows, RUN_KINDS } from '@paydesk/domain';
import { sql } from 'kysely';
import { runWindow } from '../../areas/bonus/run';
import type { Db } from '../connect';

/** Equipment models merchants carry, with the general bonus amount of those that earn one. */
const MODELS: readonly [title: string, model: string, amount: string | null][] = [
  ['PAX A920', 'A920', '75.00'],
  ['PAX A80', 'A80', '50.00'],
  ['Clover Flex', 'C401', '100.00'],
  ['Clover Mini', 'C300', '60.00'],
  ['Verifone V400m', 'V400M', null],
  ['Virtual Terminal', 'VT', null],
];
const OWNERSHIP = ['Sole Proprietorship', 'LLC', 'Corporation', 'Partnership', 'Non-Profit'];

/** A stable number from a text (the same on PGlite and PostgreSQL). */
const bucket = (column: string, n: number) =>
  sql.raw(`(('x' || substr(md5(${column}), 1, 7))::bit(28)::int % ${n})`);

export interface BonusSeedReport {
  runs: number;
  bonuses: number;
  clawbacks: number;
}

/**
 * Each merchant's ownership type and equipment model, drawn from its MID (the same MID always gets the same);
 * every merchant, or one the live demo has just approved.
 */
export async function assignMerchantFacts(db: Db, merchantId?: number): Promise<void> {
  await sql`update merchants set
      ownership_type = (${sql.val(OWNERSHIP)}::text[])[1 + ${bucket('mid', OWNERSHIP.length)}],
      equipment_model = (${sql.val(MODELS.map((m) => m[1]))}::text[])[1 + ${bucket("mid || 'eq'", MODELS.length)}]
    where ${merchantId === undefined ? sql`true` : sql`id = ${merchantId}`}`.execute(db);
}

/**
 * The merchants' side of the bonus demo data, after their ownership types and equipment models
 * (`assignMerchantFacts`, which the seed runs before the merchants' indexes are back): about one merchant in
 * fifty approved since mid-2022 moved into the premises of an earlier one of its ISO (matches). Runs before the
 * derived rows are built (Self Serve rows carry the address).
 */
export async function seedBonusMerchantFacts(db: Db): Promise<void> {
  await sql`update merchants m set address = e.address, city = e.city, state = e.state, zip = e.zip
    from merchants e
    where m.approved_on >= '2022-07-01' and ${bucket("m.mid || 'addr'", 50)} = 0
      and e.id = (select max(x.id) from merchants x where x.partner_id = m.partner_id and x.id < m.id
        and x.approved_on < m.approved_on - 40)`.execute(db);
}

/**
 * The bonus module's demo specifications for the busiest ISOs, then every run due since the first windows
 * (2022), in run-date order, as the schedules would have made them (docs/bonus.md).
 */
export async function generateBonus(
  db: Db,
  options: { today: string; log?: (line: string) => void },
): Promise<BonusSeedReport> {
  const log = options.log ?? (() => {});
  const busiest = await sql<{ iso: string; groups: string[] }>`
    select p.account_name as iso, array_agg(distinct m.group_id order by m.group_id) as groups
    from merchants m join partners p on p.id = m.partner_id
    where m.approved_on >= '2022-05-01' and m.profile in ('PayLo', 'Traditional')
    group by p.account_name order by count(*) desc, p.account_name limit 6`.execute(db);
  const isos = busiest.rows;
  const at = (i: number) => isos[i % Math.max(isos.length, 1)];
  const g = (i: number, from: number, count: number) =>
    (at(i)?.groups ?? [])
      .slice(from, from + count)
      .sort()
      .join(',');

  const includes = [
    { iso_name: null, group_id: '', amount: '100', profile: 'PL', period: 'M', on_activation: false },
    { iso_name: null, group_id: '', amount: '150', profile: 'TR', period: 'M', on_activation: true },
    {
      iso_name: at(0)?.iso,
      group_id: g(0, 0, 3),
      amount: '200',
      profile: 'TR',
      period: 'W',
      on_activation: false,
    },
    {
      iso_name: at(0)?.iso,
      group_id: g(0, 0, 3),
      amount: '125',
      profile: 'PL',
      period: 'W',
      on_activation: false,
    },
    {
      iso_name: at(1)?.iso,
      group_id: g(1, 0, 2),
      amount: '250',
      profile: 'TR',
      period: 'M',
      on_activation: true,
    },
    {
      iso_name: at(2)?.iso,
      group_id: g(2, 0, 2),
      amount: '0',
      profile: 'PL',
      period: 'M',
      on_activation: false,
      placement_only: true,
    },
  ].filter((s) => s.iso_name !== undefined && (s.iso_name === null || s.group_id !== ''));
  await db
    .insertInto('bonus_specs')
    .values(
      includes.map((s) => ({
        iso_name: s.iso_name ?? null,
        group_id: s.group_id,
        amount: s.amount,
        profile: s.profile as 'PL' | 'TR',
        period: s.period as 'W' | 'M',
        on_activation: s.on_activation,
        placement_only: s.placement_only ?? false,
        volume_days: 30,
        volume_threshold: '250',
      })),
    )
    .execute();
  const excluded = g(3, 0, 1);
  if (excluded)
    await db
      .insertInto('bonus_excludes')
      .values([{ iso_name: at(3)?.iso ?? null, group_id: excluded, profile: 'TR', period: 'M' }])
      .execute();
  await db
    .insertInto('bonus_equipment')
    .values(
      MODELS.filter((m) => m[2] !== null).map(([title, model, amount]) => ({
        title,
        model,
        amount: amount as string,
      })),
    )
    .execute();
  if (at(1))
    await db
      .insertInto('exclusive_equipment')
      .values({
        iso_name: at(1)?.iso as string,
        group_id: g(1, 0, 2),
        title: 'Clover Flex (partner price)',
        model: 'C401',
        amount: '140.00',
      })
      .execute();
  await db
    .updateTable('clawback_specs')
    .set({ closure_days: 90, volume_days: 60, volume_threshold: '500', non_processing: true })
    .where('group_id', '=', '')
    .execute();
  if (at(0))
    await db
      .insertInto('clawback_specs')
      .values({
        iso_name: at(0)?.iso as string,
        group_id: g(0, 0, 3),
        closure_days: 120,
        volume_days: 0,
        volume_threshold: '0',
        non_processing: true,
        monthly_volume_threshold: '200',
      })
      .execute();
  if (at(1))
    await db
      .insertInto('activation_specs')
      .values({
        iso_name: at(1)?.iso as string,
        group_id: g(1, 0, 2),
        volume_days: 45,
        volume_threshold: '500',
      })
      .execute();
  const extras = [
    { i: 0, deals: 3, amount: '50', type: 'EPD' as const },
    { i: 1, deals: 2, amount: '300', type: 'EFR' as const },
  ];
  for (const e of extras) {
    const iso = at(e.i);
    const groups = iso?.groups
      .slice(e.i === 0 ? 3 : 2)
      .sort()
      .join(',');
    if (!iso || !groups) continue;
    await db
      .insertInto('extra_bonus_specs')
      .values({
        iso_name: iso.iso,
        group_id: groups,
        extra_deals: e.deals,
        extra_amount: e.amount,
        bonus_type: e.type,
        start_date: '2023-06-01',
        end_date: '2030-12-31',
        enabled: true,
      })
      .execute();
  }
  log('  bonus specifications');

  // Every due run in run-date order (a clawback reads the bonuses paid before it).
  const windows: BonusWindow[] = RUN_KINDS.flatMap((k) => dueWindows(k, options.today)).sort((a, b) =>
    a.runDate === b.runDate
      ? RUN_KINDS.indexOf(a.kind) - RUN_KINDS.indexOf(b.kind)
      : a.runDate < b.runDate
        ? -1
        : 1,
  );
  for (const w of windows) await runWindow(db, w, null);
  const counts = await sql<{ bonuses: number; clawbacks: number }>`
    select (select count(*) from bonus_rows)::int as bonuses, (select count(*) from clawback_rows)::int as clawbacks`.execute(
    db,
  );
  log(`  ${windows.length} bonus runs`);
  return { runs: windows.length, ...(counts.rows[0] ?? { bonuses: 0, clawbacks: 0 }) };
}

/**
 * A demo database seeded before the bonus tables existed (the bench database) gets its bonus data without a
 * reseed, as of the day its data reaches. Returns null when there was nothing to do.
 */
export async function seedBonusIfMissing(
  db: Db,
  log?: (line: string) => void,
): Promise<BonusSeedReport | null> {
  const state = await db.selectFrom('demo_state').select(['caught_up_to']).executeTakeFirst();
  if (!state) return null;
  const existing = await db.selectFrom('bonus_runs').select('id').limit(1).executeTakeFirst();
  if (existing) return null;
  const report = await db
    .transaction()
    .execute((trx) =>
      generateBonus(trx, { today: new Date(state.caught_up_to).toISOString().slice(0, 10), log }),
    );
  await sql`vacuum analyze bonus_rows, clawback_rows, merchants`.execute(db);
  return report;
}

import { addMonths, firstDailyDay, monthStart } from '@paydesk/domain';
import { sql } from 'kysely';
import { redrawMidParts } from '../../areas/financial/queries';
import type { Db } from '../connect';
import { FROM_DAYS_TABLES, rebuildAll, rebuildFromDays, rebuildFromRecords } from '../derived';
import type { NewPartner } from '../schema';
import { generateAch } from './ach';
import {
  generateAdjustments,
  generateIncome,
  generateMonthlyActivity,
  generateResiduals,
  insertDailyActivity,
} from './activity';
import { assignMerchantFacts, generateBonus, seedBonusMerchantFacts } from './bonus';
import {
  ACH_BULK_TABLES,
  BULK_TABLES,
  DERIVED_BULK_TABLES,
  deferIndexes,
  flushStatistics,
  freshStorage,
  holdAutovacuum,
  holdKeptRowTriggers,
  holdTriggers,
  keepEveryKeptRow,
  type RestoreIndexes,
  releaseAutovacuum,
  releaseTriggers,
  SOURCE_BULK_TABLES,
  vacuumAnalyzeOnTwo,
} from './bulk';
import { generateLeads } from './leads';
import { demoPartners } from './partners';
import { generatePci } from './pci';
import { Random, WeightedTable } from './random';
import {
  BUSINESS_WORDS,
  bankHolidays,
  FIRST_NAMES,
  HIGH_RISK_MCCS,
  ISO_WORDS_A,
  ISO_WORDS_B,
  LAST_NAMES,
  MCCS,
  type Mcc,
  PLACE_WORDS,
  STAFF,
  STATES,
} from './reference';

export const SCALES = {
  /** For the API tests: small and quick on the embedded database. */
  test: { isos: 24, merchants: 600, applications: 2_000 },
  /** What npm start fills an empty database with. */
  demo: { isos: 80, merchants: 3_000, applications: 12_000 },
  /** For benchmarks on PostgreSQL. */
  large: { isos: 1_000, merchants: 86_000, applications: 500_000 },
  /** The bench's growth check (BENCH_SCALES=demo,large,xl): about three times large, in the same proportions. */
  xl: { isos: 2_900, merchants: 250_000, applications: 1_450_000 },
} as const;
export type Scale = keyof typeof SCALES;

export const DEFAULT_SEED = 20160501;
export const HISTORY_START = '2016-05-01';

export const DAY = 86_400_000;
export const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY;
export const isoDay = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);

const PROFILE_MIX = { items: ['Traditional', 'PayLo', 'High Risk'] as const, weights: [58, 32, 10] };
const BANK_MIX = {
  items: ['CBCAL', 'Esquire', 'Chesapeake', 'PPS', 'FirstData'] as const,
  weights: [38, 24, 16, 14, 8],
};
const MID_PREFIX: Record<string, string> = {
  CBCAL: '8788',
  Esquire: '4445',
  Chesapeake: '5176',
  PPS: '7410',
  FirstData: '5250',
};
/** Monthly hazard of closing, by profile. */
const ATTRITION: Record<string, number> = {
  Traditional: 0.011,
  PayLo: 0.014,
  'High Risk': 0.03,
  Unassigned: 0.02,
};
/** Markup in basis points over pass-through costs, by profile. */
const MARGIN_BPS: Record<string, number> = { Traditional: 42, PayLo: 95, 'High Risk': 160, Unassigned: 38 };

export interface GroupRow {
  partner_id: number;
  group_sf_id: string;
  group_name: string;
  group_id: string;
  association_number: string;
  rev_share: string;
  bank: string;
  profile: string;
  processor: string;
  effective_date: string;
}

export interface SeededPartner {
  id: number;
  account_name: string;
  date_signed: string | null;
  rm: string | null;
  isc: string | null;
  in_house: boolean;
}

export interface SeedReport {
  partners: number;
  merchants: number;
  applications: number;
  seconds: number;
}

/**
 * The deterministic demo-data generator. The same seed, scale and `today` give the same rows: entities are
 * drawn here with a seeded generator, activity, income and residuals are computed in SQL from per-merchant
 * parameters with hashed noise (sqlNoise.ts).
 */
export async function generateMerchantData(
  db: Db,
  options: {
    scale: Scale;
    seed?: number;
    today?: Date | undefined;
    log?: ((line: string) => void) | undefined;
    /**
     * Seed in stages on two connections of a PostgreSQL server (below); otherwise in one transaction. Not for
     * PGlite, which has one connection.
     */
    staged?: boolean | undefined;
  },
): Promise<SeedReport> {
  const started = Date.now();
  const size = SCALES[options.scale];
  const seed = options.seed ?? DEFAULT_SEED;
  const say = options.log ?? (() => {});
  const log = (line: string) => say(`${line} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const random = new Random(seed);
  const now = options.today ?? new Date();
  const today = now.toISOString().slice(0, 10);
  const todayN = dayNumber(today);
  const currentMonth = monthStart(now);
  const window = { dailyFrom: firstDailyDay(now), lastDay: isoDay(todayN - 1), currentMonth };

  // A seed that stopped after a stage it committed (the staged seed below) leaves partners without users; seeding
  // over it would fail on the first unique key, so it is named instead.
  if (await db.selectFrom('partners').select('id').limit(1).executeTakeFirst())
    throw new Error(
      'This database already holds merchant data but no users: an earlier seed stopped before it finished. ' +
        'Drop the database and create it again (or point DATABASE_URL at an empty one), then start again.',
    );

  /**
   * The records drawn here: partners, groups, merchants, applications, and each merchant's activity parameters
   * (seed_params). Answers what makes the deferred indexes again.
   */
  let partners: SeededPartner[] = [];
  const loadMerchants = async (trx: Db) => {
    // Reference data
    await insertAll(
      trx,
      'mcc_codes',
      MCCS.map((m) => ({ code: m.code, description: m.description })),
    );
    await insertAll(trx, 'holidays', bankHolidays(2016, now.getUTCFullYear() + 1));

    // Partners: the named demo ISOs, then a long tail.
    const named = demoPartners();
    const partnersIn: NewPartner[] = [...named];
    const usedNames = new Set(named.map((p) => p.account_name));
    for (let i = partnersIn.length; i < size.isos; i++) {
      let name = '';
      do {
        name = `${random.pick(ISO_WORDS_A)} ${random.pick(ISO_WORDS_B)}`;
        if (usedNames.has(name))
          name = `${name} ${random.pick(['West', 'East', 'South', 'North', 'Central', 'National', 'Pacific', 'Atlantic'])}`;
        if (usedNames.has(name)) name = `${name} ${i}`;
      } while (usedNames.has(name));
      usedNames.add(name);
      const [state, , cities] = random.pick(STATES);
      const [city, zip3] = random.pick(cities);
      const signedN =
        dayNumber('2014-01-15') + Math.floor(random.next() ** 0.8 * (todayN - 400 - dayNumber('2014-01-15')));
      partnersIn.push({
        account_id: `001SEED${String(i + 1).padStart(8, '0')}`,
        account_name: name,
        status: 'Active',
        rm: random.pick(STAFF.rms),
        recruiter: random.pick(STAFF.recruiters),
        isc: (0.5 + 0.05 * random.int(0, 7)).toFixed(4),
        liability: random.chance(0.3) ? 'Liable' : 'Not Liable',
        date_signed: isoDay(signedN),
        full_name: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
        processing_email: `processing@${slug(name)}.example`,
        phone: `(${random.int(201, 989)}) 555-${random.digits(4)}`,
        billing_street: `${random.int(10, 9900)} ${random.pick(PLACE_WORDS)} ${random.pick(['Ave', 'Blvd', 'St', 'Pkwy', 'Dr'])}`,
        billing_city: city,
        billing_state: state,
        billing_zip: `${zip3}${random.digits(2)}`,
        operation_email: `ops@${slug(name)}.example`,
        in_house: false,
      });
    }
    partners = await insertAll<SeededPartner>(trx, 'partners', partnersIn, [
      'id',
      'account_name',
      'date_signed',
      'rm',
      'isc',
      'in_house',
    ]);
    log(`  ${partners.length} partners`);

    // ISO sizes follow a long tail; the in-house partners are mid-sized.
    const isoWeights = partners.map((p, i) => (p.in_house ? 0.08 : 1 / (i + 1) ** 1.05));

    // Groups: one to five per ISO, each with its bank, profile and rev share. Group IDs and association
    // numbers follow each bank's sequence (group_id_sequences), as Add Group ID continues them.
    const sequences = new Map(
      (await trx.selectFrom('group_id_sequences').selectAll().execute()).map((q) => [
        q.bank,
        { groupId: Number(q.next_group_id), association: Number(q.next_association) },
      ]),
    );
    const groups: GroupRow[] = [];
    const groupsByPartner = new Map<number, GroupRow[]>();
    let groupSeq = 0;
    for (const [i, p] of partners.entries()) {
      const count = Math.min(
        5,
        1 + Math.floor(random.next() * 2 + Math.log10(1 + 2000 * (isoWeights[i] ?? 0))),
      );
      for (let g = 0; g < count; g++) {
        groupSeq++;
        const bank = random.weighted(BANK_MIX.items, BANK_MIX.weights);
        const profile = random.weighted(PROFILE_MIX.items, PROFILE_MIX.weights);
        const sequence = sequences.get(bank);
        if (!sequence) throw new Error(`No group ID sequence for ${bank}`);
        const row: GroupRow = {
          partner_id: p.id,
          group_sf_id: `a0G${String(groupSeq).padStart(12, '0')}`,
          group_name:
            count === 1
              ? p.account_name
              : `${p.account_name} ${profile === 'PayLo' ? 'PayLo' : bank}${g > 0 ? ` ${g + 1}` : ''}`,
          group_id: String(sequence.groupId++),
          association_number: String(sequence.association++),
          rev_share: Math.min(1, Number(p.isc ?? 0.7) + (random.int(-1, 1) * 5) / 100).toFixed(4),
          bank,
          profile,
          processor: 'TSYS',
          effective_date: isoDay(dayNumber(p.date_signed ?? '2016-01-01') + random.int(0, 60)),
        };
        groups.push(row);
        groupsByPartner.set(p.id, [...(groupsByPartner.get(p.id) ?? []), row]);
      }
    }
    await insertAll(trx, 'groups', groups);
    for (const [bank, next] of sequences)
      await trx
        .updateTable('group_id_sequences')
        .set({ next_group_id: next.groupId, next_association: next.association })
        .where('bank', '=', bank)
        .execute();
    log(`  ${groups.length} groups`);

    // The bulk of the rows goes in without the secondary indexes; each table gets them back before a query
    // that wants them, the rest after the ACH returns.
    await bulkWorkMem(trx);
    const restoreIndexes = await deferIndexes(trx, BULK_TABLES);
    await freshStorage(trx, BULK_TABLES);

    const ctx = drawContext(partners, groupsByPartner);
    const historyStartN = dayNumber(HISTORY_START);
    const earliestFor = (partner: SeededPartner) =>
      Math.max(historyStartN, dayNumber(partner.date_signed ?? HISTORY_START) + 30);

    // Merchants, their approved applications and their activity parameters.
    const merchants: Record<string, unknown>[] = [];
    const params: Record<string, unknown>[] = [];
    const apps: Record<string, unknown>[] = [];
    for (let i = 0; i < size.merchants; i++) {
      const d = drawMerchant(random, ctx, {
        tag: String(i),
        midSerial: String(i + 1).padStart(7, '0'),
        todayN,
        // More merchants join in later years: the book grows.
        approvedDay: (partner) => {
          const earliest = earliestFor(partner);
          return Math.min(todayN, earliest + Math.floor(random.next() ** 0.75 * (todayN - earliest + 1)));
        },
        stamp: (n) => stamp(random, n, now),
      });
      merchants.push(d.merchant);
      params.push({
        merchant_index: i,
        partner_id: d.merchant.partner_id,
        opened_on: isoDay(d.approvedN),
        open_to: isoDay(d.closedN ?? todayN),
        active_from: d.activatedN === null ? null : isoDay(d.activatedN),
        active_to: d.activatedN === null ? null : isoDay(Math.min(d.closedN ?? todayN - 1, todayN - 1)),
        ...d.params,
        activates_on: d.activatesN === null ? null : isoDay(d.activatesN),
        closes_on: isoDay(d.closesN),
      });
      apps.push({ merchant_index: i, ...d.application });
    }
    const merchantIds = await insertAll<{ id: number }>(trx, 'merchants', merchants, ['id']);
    log(`  ${merchantIds.length} merchants`);

    // Applications that did not become merchants: declined and withdrawn through history, pending lately.
    const pendingCount = Math.max(20, Math.round(size.merchants * 0.015));
    for (let i = apps.length; i < size.applications; i++) {
      const pending = i - size.merchants < pendingCount;
      apps.push({
        merchant_index: null,
        ...drawApplication(random, ctx, {
          pending,
          submittedDay: (partner) => {
            const earliest = earliestFor(partner);
            return pending
              ? todayN - Math.floor(random.next() ** 1.3 * 120)
              : Math.min(todayN, earliest + Math.floor(random.next() ** 0.75 * (todayN - earliest + 1)));
          },
          stamp: (n) => stamp(random, n, now),
        }),
      });
    }
    const appRows = apps.map(({ merchant_index, ...a }) => ({
      ...a,
      merchant_id: merchant_index === null ? null : (merchantIds[merchant_index as number]?.id ?? null),
    }));
    await insertAll(trx, 'applications', appRows);
    log(`  ${appRows.length} applications`);

    // The staged seed's other connections read it too: an unlogged table of its own, dropped once the records are in.
    await sql`create ${sql.raw(options.staged ? 'unlogged' : 'temporary')} table seed_params (
      merchant_id integer primary key, partner_id integer, opened_on date, open_to date, active_from date, active_to date,
      base float8, ticket float8, cb_rate float8, refund_rate float8, trend float8, margin_bps float8, ic_rate float8,
      activates_on date, closes_on date
    ) ${sql.raw(options.staged ? '' : 'on commit drop')}`.execute(trx);
    await insertAll(
      trx,
      'seed_params' as 'merchants',
      params.map(({ merchant_index, ...p }) => ({
        merchant_id: merchantIds[merchant_index as number]?.id,
        ...p,
      })),
    );

    // What the live demo continues the merchants from (see live.ts); the residuals are the demo merchants'.
    await sql`insert into demo_merchant_params (merchant_id, activates_on, closes_on, base, ticket, cb_rate,
        refund_rate, trend, margin_bps, ic_rate)
      select merchant_id, activates_on, closes_on, base, ticket, cb_rate, refund_rate, trend, margin_bps, ic_rate
      from seed_params`.execute(trx);
    return restoreIndexes;
  };

  // Daily activity of the merchants `which` names (a relation with seed_params' columns).
  const dailyRows = async (trx: Db, which: string) => {
    await bulkWorkMem(trx);
    await insertDailyActivity(trx, seed, which, window.dailyFrom, window.lastDay);
  };

  /** The records made from the daily rows: monthly activity, then income from it. */
  const loadMonthly = async (trx: Db) => {
    await bulkWorkMem(trx);
    await generateMonthlyActivity(trx, seed, window);
    log('  monthly activity');
    await generateIncome(trx);
    log('  income');
  };
  // Residual statements and adjustments, from the monthly activity and income.
  const lastResidualMonth = addMonths(currentMonth, -2);
  const loadResiduals = async (trx: Db) => {
    await bulkWorkMem(trx);
    await generateResiduals(trx, seed, lastResidualMonth);
    await generateAdjustments(trx, seed, lastResidualMonth);
    log('  residuals and adjustments');
  };
  /**
   * What is looked up from the records and the merchants: ISO statuses, goals, the merchants' facts and bonus facts
   * (none of it reads the residuals or the adjustments).
   */
  const loadFacts = async (trx: Db, restoreIndexes: RestoreIndexes) => {
    await bulkWorkMem(trx);
    // The ISO statuses and the goals look up approvals by ISO and day, the budgets a month's activity.
    await restoreIndexes(['applications', 'merchant_monthly'], trx);
    log('  indexes of applications and monthly activity');
    await partnerStatusesAndCrm(trx, today, currentMonth);

    await insertAll(trx, 'schedule_a', scheduleA(random, partners));
    await goalsAndBudgets(trx, now);
    log('  ISO statuses, CRM, schedule A, goals and budgets');
    // Every merchant's ownership type and equipment model, written before the merchants' indexes are back (an
    // update of every row would otherwise write each of them too); the bonus facts then look up each merchant's
    // earlier merchants of its ISO.
    await assignMerchantFacts(trx);
    await restoreIndexes(['merchants'], trx);
    await seedBonusMerchantFacts(trx);
    log('  merchant indexes and bonus facts');
    if (options.staged) await sql`drop table seed_params`.execute(trx);
  };

  // The seed's sums, joins and sorts take millions of rows: in the server's default work_mem (the bench's 32 MB)
  // they spill to disk. Only for the scales seeded on a PostgreSQL server.
  const bulkWorkMem = async (trx: Db) => {
    if (size.merchants > 10_000) await sql`set local work_mem = '512MB'`.execute(trx);
  };
  // ACH returns and reserves, from the merchants.
  const ach = async (trx: Db) => {
    await bulkWorkMem(trx);
    await generateAch(trx, { seed, today, log });
  };
  // Every deferred index and foreign key left, and the residual months' statistics targets (their indexes were
  // made again: their expressions' statistics target with them).
  const indexes = async (trx: Db, restoreIndexes: RestoreIndexes) => {
    await restoreIndexes(BULK_TABLES, trx);
    await sql`select paydesk_residual_statistics(c.relname::text) from pg_inherits i
      join pg_class c on c.oid = i.inhrelid where i.inhparent = 'residuals'::regclass`.execute(trx);
    log('  indexes and foreign keys');
  };
  const pciAndLeads = async (trx: Db) => {
    await generatePci(trx, { seed, today, log });
    await generateLeads(trx, { scale: options.scale, today, seed, log });
  };
  const finish = async (trx: Db) => {
    // The financial filter's MID list divided into parts of the merchants as seeded (areas/financial/jobs.ts).
    await redrawMidParts(trx);
    // The marker of a demo database (see live.ts).
    await trx
      .insertInto('demo_state')
      .values({ seed, scale: options.scale, seeded_at: now, caught_up_to: now })
      .execute();
  };

  if (!options.staged) {
    // One transaction: all or nothing.
    await db.transaction().execute(async (trx) => {
      const heldKept = await holdKeptRowTriggers(trx);
      const restoreIndexes = await loadMerchants(trx);
      // No bonus row exists while the seed loads the activity (the bonus runs come after it): the trigger that
      // keeps bonus rows' volumes from the daily rows (migration 2026_12_05_0010) has none to keep, and would only
      // collect every daily row loaded into its transition table.
      await sql`alter table merchant_daily disable trigger merchant_daily_bonus_days_insert`.execute(trx);
      await dailyRows(trx, 'seed_params');
      log('  daily activity');
      await sql`alter table merchant_daily enable trigger merchant_daily_bonus_days_insert`.execute(trx);
      await loadMonthly(trx);
      await loadResiduals(trx);
      await loadFacts(trx, restoreIndexes);
      await rebuildAll(trx);
      log('  rollups and Self Serve rows');
      // ACH and the bonus runs (the product's own queries) are planned on statistics: this transaction's rows have
      // none until analysed (autovacuum cannot see them), and planned on guesses the bonus runs took half as long
      // again. Not before the derived tables: with statistics the Self Serve rows were read through an index, in
      // their order, 20 s slower than hashed and sorted.
      await sql`analyze merchants, partners, groups, merchant_daily, merchant_monthly, merchant_income`.execute(
        trx,
      );
      await ach(trx);
      await indexes(trx, restoreIndexes);
      await generateBonus(trx, { today, log });
      await keepEveryKeptRow(trx, heldKept);
      await pciAndLeads(trx);
      await finish(trx);
    });
    // Fresh tables: set the visibility map (index-only counts) and the planner's statistics.
    await sql`vacuum analyze`.execute(db);
    log('  vacuum analyze');
  } else {
    // In stages, each a transaction, two at once where they write different tables: one transaction runs on one
    // core, and the machine has two. The stages commit one by one, so a seed stopped halfway leaves a database
    // to drop (named at the next start, above); the demo users and the demo_state marker come last. While it
    // loads, autovacuum keeps off its tables, and the triggers that only count writes for the kept answers
    // (answer_versions, one row per answer that every writer would wait on) and the bonus rows' daily volumes
    // (no bonus row exists yet) are off; every answer's version is raised once at the end. The triggers that keep
    // rows per merchant or per approval are off too, and every such row is written once at the end.
    const { heldKept, restoreIndexes, heldTriggers, heldTables } = await db
      .transaction()
      .execute(async (trx) => ({
        heldKept: await holdKeptRowTriggers(trx),
        restoreIndexes: await loadMerchants(trx),
        heldTables: await holdAutovacuum(trx),
        heldTriggers: await holdTriggers(trx),
      }));
    // The daily rows on one connection, in new storage of their transaction (no WAL as well, bulk.ts); ACH, PCI and
    // leads on the other, from the merchants and their ISOs only (planned on their statistics, committed at once).
    await both(
      db.transaction().execute(async (trx) => {
        await freshStorage(trx, ['merchant_daily']);
        await dailyRows(trx, 'seed_params');
        log('  daily activity');
      }),
      (async () => {
        await sql`analyze merchants, partners, groups`.execute(db);
        await db.transaction().execute(async (trx) => {
          await freshStorage(trx, [...ACH_BULK_TABLES]);
          await ach(trx);
          await pciAndLeads(trx);
        });
      })(),
    );
    // The monthly activity and income on one connection, then what is looked up from them; the groups' daily rollup
    // on the other, then the residuals and adjustments once the monthly activity and income are committed. Each
    // transaction gives the empty tables it fills new storage (no WAL, as above).
    const monthly = db.transaction().execute(async (trx) => {
      await freshStorage(trx, ['merchant_monthly', 'merchant_income']);
      await loadMonthly(trx);
    });
    await both(
      (async () => {
        await monthly;
        await db.transaction().execute((trx) => loadFacts(trx, restoreIndexes));
      })(),
      (async () => {
        await db.transaction().execute(async (trx) => {
          await bulkWorkMem(trx);
          await freshStorage(trx, FROM_DAYS_TABLES);
          await rebuildFromDays(trx);
        });
        await monthly;
        await db.transaction().execute(async (trx) => {
          await freshStorage(trx, ['adjustments']);
          await loadResiduals(trx);
        });
      })(),
    );
    await both(
      db.transaction().execute(async (trx) => {
        await bulkWorkMem(trx);
        await freshStorage(
          trx,
          DERIVED_BULK_TABLES.filter((t) => !FROM_DAYS_TABLES.includes(t)),
        );
        await rebuildFromRecords(trx);
        log('  rollups and Self Serve rows');
      }),
      // The records' own indexes and keys meanwhile (not the derived tables' the other connection writes).
      db.transaction().execute((trx) => restoreIndexes(SOURCE_BULK_TABLES, trx)),
    );
    await db.transaction().execute((trx) => indexes(trx, restoreIndexes));
    // The bonus runs (the product's own queries) read the daily rows through index-only scans: on committed,
    // vacuumed tables.
    await vacuumAnalyzeOnTwo(db);
    log('  vacuum analyze');
    const flushed = await db.connection().execute(async (conn) => {
      await conn.transaction().execute(async (trx) => {
        await releaseTriggers(trx, heldTriggers);
        await generateBonus(trx, { today, log });
        await keepEveryKeptRow(trx, heldKept);
        await finish(trx);
        await sql`update answer_versions set version = version + 1`.execute(trx);
        await releaseAutovacuum(trx, heldTables);
      });
      return flushStatistics(conn);
    });
    // Every table the bonus runs and the end wrote, analysed again (all of them if the server cannot say which).
    await vacuumAnalyzeOnTwo(db, { changedOnly: flushed });
    log('  vacuum analyze of the tables the bonus runs wrote');
  }
  return {
    partners: size.isos,
    merchants: size.merchants,
    applications: size.applications,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

/** Both stages' ends, the first failure thrown once both have ended (neither is left running unawaited). */
async function both(a: Promise<unknown>, b: Promise<unknown>): Promise<void> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
}

/** What drawing a merchant or an application needs: the ISOs by weight, their groups, the weighted tables. */
export interface DrawContext {
  isoTable: WeightedTable<SeededPartner>;
  groupsByPartner: ReadonlyMap<number, readonly GroupRow[]>;
  mccTable: WeightedTable<Mcc>;
  highRiskMccs: readonly Mcc[];
  stateTable: WeightedTable<(typeof STATES)[number]>;
}

/** `partners` in the order the seed made them: an ISO's weight follows its rank. */
export function drawContext(
  partners: readonly SeededPartner[],
  groupsByPartner: ReadonlyMap<number, readonly GroupRow[]>,
): DrawContext {
  return {
    // ISO sizes follow a long tail; the in-house partners are mid-sized.
    isoTable: new WeightedTable(
      partners,
      partners.map((p, i) => (p.in_house ? 0.08 : 1 / (i + 1) ** 1.05)),
    ),
    groupsByPartner,
    mccTable: new WeightedTable(
      MCCS,
      MCCS.map((m) => m.weight),
    ),
    highRiskMccs: MCCS.filter((m) => HIGH_RISK_MCCS.includes(m.code)),
    stateTable: new WeightedTable(
      STATES,
      STATES.map(([, pop]) => pop),
    ),
  };
}

/**
 * One merchant and its approved application, drawn in a fixed order from `random`. `todayN` is the day the
 * data stops: an activation or closing drawn on or after it has not happened yet (activatedN, closedN are
 * null) but stays planned (activatesN, closesN) for the live demo to carry out.
 */
export function drawMerchant(
  random: Random,
  ctx: DrawContext,
  o: {
    /** Makes the merchant's e-mail domain unique. */
    tag: string;
    /** The seven digits after the bank's prefix of the MID. */
    midSerial: string;
    todayN: number;
    /**
     * Up to which day an activation counts for the closing hazard (a merchant not active by then closes like
     * one that never activates): the seed's today; the live demo, which draws a merchant on its approval
     * day, counts the activation it plans.
     */
    hazardAsOf?: number;
    approvedDay: (partner: SeededPartner) => number;
    stamp: (day: number) => Date;
  },
) {
  const partner = ctx.isoTable.pick(random);
  const group = random.pick(ctx.groupsByPartner.get(partner.id) ?? []);
  const profile = random.chance(0.08) ? 'Unassigned' : group.profile;
  const bank = group.bank;
  const mcc: Mcc =
    profile === 'High Risk' && random.chance(0.6) ? random.pick(ctx.highRiskMccs) : ctx.mccTable.pick(random);
  const approvedN = o.approvedDay(partner);
  const submittedN = approvedN - random.int(1, 14);
  const activatesN = random.chance(0.93) ? approvedN + random.int(2, 40) : null;
  const activatedN = activatesN !== null && activatesN < o.todayN ? activatesN : null;
  const activeForHazard = activatesN !== null && activatesN < (o.hazardAsOf ?? o.todayN);
  const hazard = (ATTRITION[profile] ?? 0.015) * (activeForHazard ? 1 : 4);
  const lifeMonths = Math.ceil(Math.log(Math.max(random.next(), 1e-9)) / Math.log(1 - hazard));
  const closesN = approvedN + lifeMonths * 30 + random.int(0, 29);
  const closedN = closesN < o.todayN ? closesN : null;
  const [state, , cities] = ctx.stateTable.pick(random);
  const [city, zip3] = random.pick(cities);
  const words = BUSINESS_WORDS[mcc.kind];
  const dba = random.chance(0.25)
    ? `${random.pick(LAST_NAMES)}'s ${random.pick(words.nouns)}`
    : `${random.pick(PLACE_WORDS)} ${random.pick(words.nouns)}`;
  const suffix = random.pick(words.suffixes);
  const mid = `${MID_PREFIX[bank] ?? '9999'}${o.midSerial}${random.digits(5)}`;
  const domain = `${slug(dba)}${o.tag}.example`;
  const merchant = {
    mid,
    dba,
    legal_name: random.chance(0.2)
      ? `${random.pick(LAST_NAMES)} Holdings LLC`
      : `${dba}${suffix ? ` ${suffix}` : ' LLC'}`,
    partner_id: partner.id,
    group_id: group.group_id,
    profile,
    sponsor_bank: bank,
    association_number: group.association_number,
    mcc: mcc.code,
    status: closedN === null ? 'Open' : 'Closed',
    email: `owner@${domain}`,
    phone: `(${random.int(201, 989)}) ${random.int(200, 989)}-${random.digits(4)}`,
    cb_email: random.chance(0.7) ? `chargebacks@${domain}` : null,
    address: `${random.int(1, 9999)} ${random.pick(PLACE_WORDS)} ${random.pick(['St', 'Ave', 'Rd', 'Blvd', 'Way', 'Ln'])}`,
    city,
    state,
    zip: `${zip3}${random.digits(2)}`,
    funding: random.chance(bank === 'CBCAL' ? 0.45 : 0.2) ? 'Next Day' : 'Standard',
    opened_on: isoDay(approvedN),
    approved_on: isoDay(approvedN),
    activated_on: activatedN === null ? null : isoDay(activatedN),
    closed_on: closedN === null ? null : isoDay(closedN),
    rm: partner.rm,
    underwriter: random.pick(STAFF.underwriters),
    sales_rep: `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
  };
  const sizeFactor = profile === 'PayLo' ? 0.55 : profile === 'High Risk' ? 1.4 : 1;
  const params = {
    base: Math.round(mcc.volume * sizeFactor * random.logNormal(1, 0.75)),
    ticket: Math.max(3, Math.round(mcc.ticket * random.logNormal(1, 0.25) * 100) / 100),
    cb_rate: profile === 'High Risk' ? 0.004 + random.next() * 0.008 : 0.0002 + random.next() * 0.0009,
    refund_rate:
      mcc.kind === 'retail' || mcc.kind === 'online'
        ? 0.015 + random.next() * 0.03
        : 0.004 + random.next() * 0.01,
    trend: Math.max(-0.25, Math.min(0.35, 0.03 + 0.09 * random.normal())),
    margin_bps: Math.max(10, Math.round((MARGIN_BPS[profile] ?? 40) * random.logNormal(1, 0.2))),
    ic_rate:
      Math.round((0.016 + Math.min(0.007, 8 / mcc.ticket / 100) + random.next() * 0.003) * 100000) / 100000,
  };
  const application = {
    partner_id: partner.id,
    group_id: group.group_id,
    dba,
    profile,
    sponsor_bank: bank,
    status: 'Approved',
    pending_level: null,
    submitted_at: o.stamp(submittedN),
    approved_at: o.stamp(approvedN),
    closed_at: closedN === null ? null : o.stamp(closedN),
    underwriter: random.pick(STAFF.underwriters),
    rm: partner.rm,
  };
  return { merchant, params, application, approvedN, activatedN, activatesN, closedN, closesN };
}

/** One application that did not become a merchant: pending, or else declined or withdrawn. */
export function drawApplication(
  random: Random,
  ctx: DrawContext,
  o: { pending: boolean; submittedDay: (partner: SeededPartner) => number; stamp: (day: number) => Date },
) {
  const partner = ctx.isoTable.pick(random);
  const group = random.pick(ctx.groupsByPartner.get(partner.id) ?? []);
  const submittedN = o.submittedDay(partner);
  const kind = MCCS[random.int(0, MCCS.length - 1)]?.kind ?? 'retail';
  return {
    partner_id: partner.id,
    group_id: group.group_id,
    dba: `${random.pick(PLACE_WORDS)} ${random.pick(BUSINESS_WORDS[kind].nouns)}`,
    profile: random.chance(0.08) ? 'Unassigned' : group.profile,
    sponsor_bank: group.bank,
    status: o.pending ? 'Pending' : random.chance(0.75) ? 'Declined' : 'Withdrawn',
    pending_level: o.pending ? random.weighted([1, 2, 3], [50, 32, 18]) : null,
    submitted_at: o.stamp(submittedN),
    approved_at: null,
    closed_at: null,
    underwriter: random.pick(STAFF.underwriters),
    rm: partner.rm,
  };
}

/** A timestamp on day n during business hours, never after now. */
function stamp(random: Random, n: number, now: Date): Date {
  const t = new Date(n * DAY + (13 + random.next() * 10) * 3_600_000);
  return t.getTime() > now.getTime()
    ? new Date(n * DAY + random.next() * Math.max(0, now.getTime() - n * DAY))
    : t;
}

function scheduleA(random: Random, partners: readonly SeededPartner[]) {
  const items: Array<[string, string, number | null, number | null]> = [
    ['Visa/MC/Discover discount', 'Discount', 8, null],
    ['Authorization', 'Per item', null, 0.05],
    ['Batch settlement', 'Per item', null, 0.03],
    ['Amex OptBlue', 'Discount', 15, null],
    ['PIN debit', 'Per item', null, 0.06],
    ['Monthly account', 'Monthly', null, 2.0],
    ['Annual fee', 'Annual', null, 5.0],
    ['PCI program', 'Monthly', null, 2.5],
  ];
  const rows: Record<string, unknown>[] = [];
  for (const p of partners) {
    const effective = p.date_signed ?? '2016-01-01';
    for (const [item, category, bps, perItem] of items) {
      rows.push({
        partner_id: p.id,
        item,
        category,
        rate_bps: bps === null ? null : (bps + random.int(-2, 4) * 0.5).toFixed(3),
        per_item: perItem === null ? null : (perItem * (1 + random.int(-1, 2) * 0.1)).toFixed(4),
        effective_date: effective,
      });
    }
  }
  return rows;
}

/**
 * Approval goals from 2019 (a little above each month's actual approvals) and processing budgets from 2020,
 * to the end of `now`'s year; months that have them keep them.
 */
export async function goalsAndBudgets(db: Db, now: Date) {
  const endOfYear = `${now.getUTCFullYear()}-12-01`;
  await sql`
    insert into approval_goals (month, goal)
    select mon::date,
           greatest(10, round(coalesce(
             (select count(*) from applications a where a.approved_at >= mon - interval '1 year' and a.approved_at < mon - interval '11 months'),
             0) * 1.12 / 5) * 5)::int
    from generate_series(date '2019-01-01', ${endOfYear}::date, interval '1 month') mon
    on conflict (month) do nothing`.execute(db);
  // Each bank's monthly volume summed in one pass, not once per month and bank (a month's rows of every bank each time).
  await sql`
    insert into processing_budgets (month, bank, budget)
    select mon::date, b.bank, round(coalesce(v.volume, 0) * 1.08, -3)
    from generate_series(date '2020-01-01', ${endOfYear}::date, interval '1 month') mon
    cross join (values ('CBCAL'), ('Esquire'), ('Chesapeake'), ('PPS'), ('FirstData')) b(bank)
    left join (select a.month, m.sponsor_bank, sum(a.volume) as volume
               from merchant_monthly a join merchants m on m.id = a.merchant_id
               where a.month >= date '2019-01-01' group by a.month, m.sponsor_bank) v
      on v.month = (mon - interval '1 year')::date and v.sponsor_bank = b.bank
    on conflict (month, bank) do nothing`.execute(db);
}

/**
 * Inserts rows, in their order, a column at a time: each statement unnests one array per column, typed as the
 * table's column, which PostgreSQL parses far faster than a VALUES list with a parameter per field (500,000
 * applications: a few seconds instead of twenty). The rows' keys name the columns.
 */
async function insertAll<R = unknown>(
  db: Db,
  table: string,
  rows: readonly object[],
  returning: string[] = [],
): Promise<R[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0] as object);
  const types = await sql<{ name: string; type: string }>`
    select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
    where attrelid = ${table}::regclass and attnum > 0 and not attisdropped`.execute(db);
  const typeOf = new Map(types.rows.map((t) => [t.name, t.type]));
  const unknown = columns.filter((c) => !typeOf.has(c));
  if (unknown.length > 0) throw new Error(`${table} has no column ${unknown.join(', ')}`);
  if (rows.some((r) => Object.keys(r).length !== columns.length))
    throw new Error(`Rows for ${table} must all name the same columns`);
  const batch = 20_000;
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += batch) {
    const part = rows.slice(i, i + batch) as Record<string, unknown>[];
    const arrays = columns.map(
      (c) => sql`${part.map((r) => r[c] ?? null)}::${sql.raw(typeOf.get(c) as string)}[]`,
    );
    const result = await sql<R>`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.id(c)))})
      select * from unnest(${sql.join(arrays)})
      ${returning.length > 0 ? sql`returning ${sql.join(returning.map((c) => sql.id(c)))}` : sql``}`.execute(
      db,
    );
    out.push(...result.rows);
  }
  return out;
}

function slug(name: string) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/**
 * Each ISO's account status by the ISO performance rule (isoStatus in domain: an approval this month makes it
 * Active, one in the last 90 days Inactive, none Dead), then the sandbox CRM filled with the same accounts and
 * groups, so an import from it on demo data changes nothing.
 */
async function partnerStatusesAndCrm(trx: Db, today: string, currentMonth: string) {
  await sql`update partners p set status = case
      when exists (select 1 from applications a where a.partner_id = p.id
                   and a.approved_at >= ${currentMonth}::date and a.approved_at < ${today}::date + 1) then 'Active'
      when exists (select 1 from applications a where a.partner_id = p.id
                   and a.approved_at >= ${today}::date - 90 and a.approved_at < ${today}::date + 1) then 'Inactive'
      else 'Dead' end`.execute(trx);
  await sql`insert into crm_accounts select account_id, account_name, status, rm, recruiter, isc, liability,
      date_signed, full_name, processing_email, phone, billing_street, billing_city, billing_state, billing_zip,
      operation_email
    from partners`.execute(trx);
  await sql`insert into crm_groups select g.group_sf_id, p.account_id, g.group_name, g.group_id,
      g.association_number, g.rev_share, g.bank, g.profile, g.processor, g.effective_date
    from groups g join partners p on p.id = g.partner_id`.execute(trx);
}

import {
  addDays,
  addressKey,
  type BonusedMerchant,
  type BonusWindow,
  type ClawbackRule,
  type ClawbackVolumes,
  chooseClawbackRule,
  clawbackLookbackStart,
  clawbackRanges,
  computeBonuses,
  computeClawbacks,
  computeExtraBonuses,
  type EquipmentAmount,
  type ExcludeSpec,
  type ExtraSpec,
  type IncludeSpec,
  lastFullMonth,
  type MerchantFacts,
  type Money,
  money,
  normalizeGroupIds,
  parseMoney,
  RUN_KIND_LABELS,
  toDecimalString,
} from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import { audit } from '../../platform/audit';

/**
 * A bonus run: loads the facts a window needs, asks the engine (domain/src/bonus) and stores its answer. A run
 * for a window is idempotent: it deletes that window's rows nobody worked (no do-not-pay, note, do-not-clawback
 * or clawback of theirs) and writes the computed ones for merchants that have no kept row, so a rerun never
 * duplicates and never changes a worked row.
 */

const m$ = (v: string | number | null | undefined): Money =>
  v === null || v === undefined ? money(0) : parseMoney(String(v));
const groups = (s: string) => normalizeGroupIds(s);

export interface Specs {
  includes: IncludeSpec[];
  excludes: ExcludeSpec[];
  equipment: EquipmentAmount[];
  exclusive: EquipmentAmount[];
  clawbackRules: ClawbackRule[];
  extras: ExtraSpec[];
}

export async function loadSpecs(db: Db): Promise<Specs> {
  const [inc, exc, eq, exEq, cb, ex] = await Promise.all([
    db.selectFrom('bonus_specs').selectAll().orderBy('id').execute(),
    db.selectFrom('bonus_excludes').selectAll().orderBy('id').execute(),
    db.selectFrom('bonus_equipment').selectAll().orderBy('id').execute(),
    db.selectFrom('exclusive_equipment').selectAll().orderBy('id').execute(),
    db.selectFrom('clawback_specs').selectAll().orderBy('id').execute(),
    db.selectFrom('extra_bonus_specs').selectAll().orderBy('id').execute(),
  ]);
  return {
    includes: inc.map((s) => ({
      id: s.id,
      iso: s.iso_name,
      groupIds: groups(s.group_id),
      amount: m$(s.amount),
      onActivation: s.on_activation,
      placementOnly: s.placement_only,
      volumeDays: s.volume_days,
      volumeThreshold: m$(s.volume_threshold),
      profile: s.profile,
      period: s.period,
    })),
    excludes: exc.map((e) => ({ groupIds: groups(e.group_id), profile: e.profile, period: e.period })),
    equipment: eq.map((e) => ({ title: e.title, model: e.model, amount: m$(e.amount) })),
    exclusive: exEq.map((e) => ({
      title: e.title,
      model: e.model,
      amount: m$(e.amount),
      groupIds: groups(e.group_id),
    })),
    clawbackRules: cb.map((c) => ({
      id: c.id,
      iso: c.iso_name,
      groupIds: groups(c.group_id),
      closureDays: c.closure_days,
      volumeDays: c.volume_days,
      volumeThreshold: m$(c.volume_threshold),
      nonProcessing: c.non_processing,
      monthlyVolumeThreshold: m$(c.monthly_volume_threshold),
    })),
    extras: ex.map((e) => ({
      id: e.id,
      iso: e.iso_name,
      groupIds: groups(e.group_id),
      deals: e.extra_deals,
      amount: m$(e.extra_amount),
      type: e.bonus_type,
      startDate: e.start_date,
      endDate: e.end_date,
      enabled: e.enabled,
    })),
  };
}

interface MerchantRecord {
  id: number;
  partner_id: number;
  mid: string;
  dba: string;
  iso: string;
  group_id: string;
  profile: string;
  approved_on: string;
  opened_on: string;
  closed_on: string | null;
  equipment_model: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
}

const merchantColumns = sql`m.id, m.partner_id, m.mid, m.dba, p.account_name as iso, m.group_id, m.profile,
  m.approved_on, m.opened_on, m.closed_on, m.equipment_model, m.address, m.city, m.state, m.zip`;

const toFacts = (r: MerchantRecord, volumes: MerchantFacts['volumes'] = []): MerchantFacts => ({
  mid: r.mid,
  dba: r.dba,
  iso: r.iso,
  groupId: r.group_id,
  profile: r.profile,
  approvedOn: r.approved_on,
  openedOn: r.opened_on,
  closedOn: r.closed_on,
  equipmentModel: r.equipment_model,
  address: r.address,
  city: r.city,
  state: r.state,
  zip: r.zip,
  volumes,
});

async function dailyVolumes(db: Db, ids: number[], from: string, to: string) {
  const byMerchant = new Map<number, { day: string; volume: Money }[]>();
  if (ids.length === 0) return byMerchant;
  const { rows } = await sql<{ merchant_id: number; day: string; volume: string }>`
    select merchant_id, day::text as day, volume::text as volume
    from bonus_daily_volume(${ids}::int[], ${from}::date, ${to}::date)
    order by merchant_id, day`.execute(db);
  for (const r of rows) {
    const list = byMerchant.get(r.merchant_id) ?? [];
    list.push({ day: r.day, volume: m$(r.volume) });
    byMerchant.set(r.merchant_id, list);
  }
  return byMerchant;
}

export interface ComputedRow {
  merchant: MerchantRecord;
  bonusType: string;
  amount: Money;
  specId: number;
  activatedOn: string | null;
  explanation: string;
}

/** The regular (W, M) or extra (ME) bonuses of a window, computed, not stored. */
export async function computeBonusWindow(db: Db, window: BonusWindow, specs: Specs): Promise<ComputedRow[]> {
  if (window.kind === 'ME') {
    const { rows } = await sql<MerchantRecord>`select ${merchantColumns} from merchants m
      join partners p on p.id = m.partner_id
      where m.approved_on between ${window.start}::date and ${window.end}::date`.execute(db);
    const facts = rows.map((r) => toFacts(r));
    const byMid = new Map(rows.map((r) => [r.mid, r]));
    return computeExtraBonuses({ window, merchants: facts, specs: specs.extras }).flatMap((e) => {
      const merchant = byMid.get(e.mid);
      return merchant
        ? [
            {
              merchant,
              bonusType: e.type,
              amount: e.amount,
              specId: e.specId,
              activatedOn: null,
              explanation: e.explanation,
            },
          ]
        : [];
    });
  }
  if (window.kind === 'CB') throw new Error('A clawback run is not a bonus window');
  const period = window.kind;
  // Paid on activation reaches back by the longest volume days: approved that long before the window.
  const reach = Math.max(0, ...specs.includes.filter((s) => s.onActivation).map((s) => s.volumeDays));
  const { rows } = await sql<MerchantRecord>`select ${merchantColumns} from merchants m
    join partners p on p.id = m.partner_id
    where m.approved_on between (${window.start}::date - ${reach}::int) and ${window.end}::date
      and m.profile in ('PayLo', 'Traditional')
      and not exists (select 1 from bonus_rows b where b.mid = m.mid and b.period in ('W', 'M')
        and not (b.period = ${period} and b.window_start = ${window.start}::date))`.execute(db);
  const onActivation = specs.includes.some((s) => s.onActivation && !s.placementOnly);
  const volumes = onActivation
    ? await dailyVolumes(
        db,
        rows.map((r) => r.id),
        addDays(window.start, -reach),
        window.end,
      )
    : new Map<number, { day: string; volume: Money }[]>();
  const byMid = new Map(rows.map((r) => [r.mid, r]));
  const computed = computeBonuses({
    window: { ...window, kind: period },
    merchants: rows.map((r) => toFacts(r, volumes.get(r.id) ?? [])),
    includes: specs.includes,
    excludes: specs.excludes,
    equipment: specs.equipment,
    exclusiveEquipment: specs.exclusive,
    alreadyBonused: new Set(),
  });
  return computed.flatMap((c) => {
    const merchant = byMid.get(c.mid);
    return merchant
      ? [
          {
            merchant,
            bonusType: c.bonusType,
            amount: c.amount,
            specId: c.specId,
            activatedOn: c.activatedOn,
            explanation: c.explanation,
          },
        ]
      : [];
  });
}

/** One bonused merchant's ranges for its clawback figures (see clawbackRanges). */
export interface ClawbackRange {
  id: number;
  opened: string;
  /** The last day of the rule's volume days (`opened` when the rule has none: `hasWithin` false). */
  within: string;
  hasWithin: boolean;
}

/**
 * The clawback figures of each merchant (ClawbackVolumes), summed in PostgreSQL over the same per-day volumes
 * that `bonus_daily_volume` lists: a merchant's daily rows where it has them, else its month's volume spread
 * evenly over the month's days (each day rounded to the cent). A spread month is summed in closed form, the
 * day's amount times the days of the month inside each range, instead of one row per day: a run reaches back
 * over a year of months for thousands of merchants. server/test/bonus.test.ts checks these figures against the
 * domain's clawbackVolumes over bonus_daily_volume's days. A merchant with no volume at all is absent.
 */
export async function clawbackVolumeSums(
  db: Db,
  ranges: ClawbackRange[],
  runDate: string,
): Promise<Map<number, ClawbackVolumes>> {
  const volumes = new Map<number, ClawbackVolumes>();
  if (ranges.length === 0) return volumes;
  const { lastMonthStart: lms, lastMonthEnd: lme } = lastFullMonth(runDate);
  const { rows } = await sql<{
    id: number;
    total: string;
    within: string;
    last_month: string;
    last_deposit: string | null;
  }>`
    with c(id, opened, within, has_within) as materialized (
      select * from unnest(${ranges.map((r) => r.id)}::int[], ${ranges.map((r) => r.opened)}::date[],
                           ${ranges.map((r) => r.within)}::date[], ${ranges.map((r) => r.hasWithin)}::boolean[])
    ),
    days(id, total, within, last_month, last_deposit) as (
      -- Each merchant's days by its index, summed in the lateral (lateral, not pulled up: at the xl scale
      -- PostgreSQL otherwise hashed all 50 million daily rows, 47 s, docs/bench.md): one row per merchant leaves
      -- the lateral instead of every day, a sixth off a late clawback run at large.
      select c.id, d.total, d.within, d.last_month, d.last_deposit
      from c cross join lateral (
        select sum(d.volume) as total,
          coalesce(sum(d.volume) filter (where c.has_within and d.day <= c.within), 0) as within,
          coalesce(sum(d.volume) filter (where d.day between ${lms}::date and ${lme}::date), 0) as last_month,
          max(d.day) filter (where d.volume > 0) as last_deposit
        from merchant_daily d
        where d.merchant_id = c.id and d.day between c.opened and ${runDate}::date and d.volume <> 0) d
      where d.total is not null
    ),
    spread as (
      -- Each merchant's months by its index; a month before the first daily row has no days to look for.
      select c.id, c.within, c.has_within, greatest(mm.month, c.opened) as a,
        least((mm.month + interval '1 month' - interval '1 day')::date, ${runDate}::date) as b,
        round(mm.volume / extract(day from (mm.month + interval '1 month' - interval '1 day'))::numeric, 2) as p
      from c cross join lateral (
        select mm.month, mm.volume from merchant_monthly mm
        where mm.merchant_id = c.id and mm.month between date_trunc('month', c.opened)::date and ${runDate}::date
          and mm.volume <> 0
        offset 0) mm
      where mm.month + interval '1 month' <= (select min(day) from merchant_daily)
        or not exists (select 1 from merchant_daily d2 where d2.merchant_id = c.id
          and d2.day >= mm.month and d2.day < mm.month + interval '1 month')
    ),
    months(id, total, within, last_month, last_deposit) as (
      select id, p * (b - a + 1),
        case when has_within and within >= a then p * (least(b, within) - a + 1) else 0 end,
        case when b >= ${lms}::date and a <= ${lme}::date
          then p * (least(b, ${lme}::date) - greatest(a, ${lms}::date) + 1) else 0 end,
        case when p > 0 then b end
      from spread where b >= a
    )
    select id, sum(total)::text as total, sum(within)::text as within, sum(last_month)::text as last_month,
      max(last_deposit)::text as last_deposit
    from (select * from days union all select * from months) v
    group by id`.execute(db);
  for (const s of rows)
    volumes.set(s.id, {
      totalVolume: m$(s.total),
      volumeWithinDays: m$(s.within),
      lastMonthVolume: m$(s.last_month),
      lastDepositDate: s.last_deposit,
    });
  return volumes;
}

export interface ComputedClawbackRow {
  merchant: MerchantRecord;
  bonusId: number;
  computed: ReturnType<typeof computeClawbacks>[number];
  bonus: { bonusDate: string; amount: Money; doNotPay: boolean; bonusType: string };
}

/** The clawbacks of the run on `window.runDate`, computed, not stored. */
export async function computeClawbackRun(
  db: Db,
  window: BonusWindow,
  specs: Specs,
): Promise<ComputedClawbackRow[]> {
  const runDate = window.runDate;
  const { rows } = await sql<
    MerchantRecord & {
      bonus_id: number;
      bonus_date: string;
      bonus_amount: string;
      do_not_pay: boolean;
      bonus_type: string;
    }
  >`select ${merchantColumns}, b.id as bonus_id, b.bonus_date, b.bonus_amount::text as bonus_amount, b.do_not_pay,
      b.bonus_type
    from bonus_rows b join merchants m on m.id = b.merchant_id join partners p on p.id = m.partner_id
    where b.period in ('W', 'M') and b.bonus_date > ${clawbackLookbackStart(runDate)}::date
      and b.bonus_date <= ${runDate}::date
      and not exists (select 1 from clawback_rows c where c.mid = b.mid and c.run_date <> ${runDate}::date)`.execute(
    db,
  );
  // Each merchant's rule decides which days its volume figures cover; PostgreSQL sums them.
  const ranges = rows.map((r) => {
    const rule = chooseClawbackRule(r.group_id, specs.clawbackRules);
    const range = rule ? clawbackRanges(r.opened_on, rule, runDate) : null;
    return {
      id: r.id,
      opened: r.opened_on,
      within: range?.volumeThresholdDate ?? r.opened_on,
      hasWithin: !!range?.volumeThresholdDate,
    };
  });
  const volumes = await clawbackVolumeSums(db, ranges, runDate);
  const bonused: BonusedMerchant[] = rows.map((r) => ({
    merchant: toFacts(r),
    bonusDate: r.bonus_date,
    amount: m$(r.bonus_amount),
    doNotPay: r.do_not_pay,
    volumes: volumes.get(r.id) ?? {
      totalVolume: money(0),
      volumeWithinDays: money(0),
      lastMonthVolume: money(0),
      lastDepositDate: null,
    },
  }));
  const byMid = new Map(rows.map((r) => [r.mid, r]));
  return computeClawbacks({
    runDate,
    bonused,
    rules: specs.clawbackRules,
    alreadyClawedBack: new Set(),
  }).flatMap((c) => {
    const r = byMid.get(c.mid);
    return r
      ? [
          {
            merchant: r,
            bonusId: r.bonus_id,
            computed: c,
            bonus: {
              bonusDate: r.bonus_date,
              amount: m$(r.bonus_amount),
              doNotPay: r.do_not_pay,
              bonusType: r.bonus_type,
            },
          },
        ]
      : [];
  });
}

export interface RunOutcome {
  written: number;
  kept: number;
  total: string;
}

/** Runs a window and stores it (see the module comment), records the run and writes the activity log. */
export async function runWindow(
  db: Db,
  window: BonusWindow,
  by: { id: number; email: string } | null,
): Promise<RunOutcome> {
  const specs = await loadSpecs(db);
  let outcome: RunOutcome;
  if (window.kind === 'CB') {
    const computed = await computeClawbackRun(db, window, specs);
    await db
      .deleteFrom('clawback_rows')
      .where('run_date', '=', window.runDate)
      .where('do_not_clawback', '=', false)
      .where('worked_datetime', 'is', null)
      .execute();
    const kept = new Set(
      (
        await db.selectFrom('clawback_rows').select('mid').where('run_date', '=', window.runDate).execute()
      ).map((r) => r.mid),
    );
    const fresh = computed.filter((c) => !kept.has(c.merchant.mid));
    for (let i = 0; i < fresh.length; i += 500)
      await db
        .insertInto('clawback_rows')
        .values(
          fresh.slice(i, i + 500).map((c) => ({
            run_date: window.runDate,
            bonus_id: c.bonusId,
            merchant_id: c.merchant.id,
            partner_id: c.merchant.partner_id,
            mid: c.merchant.mid,
            rule_id: c.computed.ruleId,
            reason: c.computed.reason,
            reason_text: c.computed.reasonText,
            flag: c.computed.flag,
            amount: toDecimalString(c.computed.amount),
            total_volume: toDecimalString(c.computed.totalVolume),
            last_deposit_date: c.computed.lastDepositDate,
            volume_threshold_date: c.computed.volumeThresholdDate,
            explanation: c.computed.explanation,
          })),
        )
        .execute();
    const total = fresh.reduce((t, c) => t + c.computed.amount, 0n);
    outcome = { written: fresh.length, kept: kept.size, total: toDecimalString(total as Money) };
  } else {
    const computed = await computeBonusWindow(db, window, specs);
    await sql`delete from bonus_rows b where b.period = ${window.kind} and b.window_start = ${window.start}::date
      and not b.do_not_pay and b.note is null and b.worked_datetime is null
      and not exists (select 1 from clawback_rows c where c.bonus_id = b.id)`.execute(db);
    const keptRows = await db
      .selectFrom('bonus_rows')
      .select(['mid', 'spec_id'])
      .where('period', '=', window.kind)
      .where('window_start', '=', window.start)
      .execute();
    const kept = new Set(keptRows.map((r) => (window.kind === 'ME' ? `${r.mid}|${r.spec_id}` : r.mid)));
    const fresh = computed.filter(
      (c) => !kept.has(window.kind === 'ME' ? `${c.merchant.mid}|${c.specId}` : c.merchant.mid),
    );
    for (let i = 0; i < fresh.length; i += 500)
      await db
        .insertInto('bonus_rows')
        .values(
          fresh.slice(i, i + 500).map((c) => ({
            period: window.kind as 'W' | 'M' | 'ME',
            window_start: window.start,
            window_end: window.end,
            bonus_date: window.runDate,
            merchant_id: c.merchant.id,
            partner_id: c.merchant.partner_id,
            mid: c.merchant.mid,
            bonus_type: c.bonusType,
            bonus_amount: toDecimalString(c.amount),
            spec_id: c.specId,
            activated_on: c.activatedOn,
            explanation: c.explanation,
            address_key: addressKey({
              address: c.merchant.address,
              city: c.merchant.city,
              state: c.merchant.state,
              zip: c.merchant.zip,
            }),
          })),
        )
        .execute();
    const total = fresh.reduce((t, c) => t + c.amount, 0n);
    outcome = { written: fresh.length, kept: keptRows.length, total: toDecimalString(total as Money) };
  }
  await db
    .insertInto('bonus_runs')
    .values({
      kind: window.kind,
      window_start: window.start,
      window_end: window.end,
      run_date: window.runDate,
      rows_written: outcome.written,
      rows_kept: outcome.kept,
      ran_by: by?.email ?? null,
    })
    .onConflict((oc) =>
      oc.columns(['kind', 'window_start']).doUpdateSet({
        rows_written: outcome.written,
        rows_kept: outcome.kept,
        ran_at: new Date(),
        ran_by: by?.email ?? null,
      }),
    )
    .execute();
  await audit(db, {
    actor: by,
    action: 'bonus.run',
    subject: `${window.kind} ${window.start}`,
    details: {
      description: `${RUN_KIND_LABELS[window.kind]} run for ${window.start} to ${window.end}${by ? '' : ' (scheduled)'}: ${outcome.written} rows written ($${outcome.total}), ${outcome.kept} worked rows kept`,
      ...outcome,
    },
  });
  return outcome;
}

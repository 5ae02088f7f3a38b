import {
  addDays,
  type BonusActivationRow,
  type BonusRow,
  bonusEndpoints,
  bonusPaths,
  type ClawbackRow,
  clawbackVolumes,
  type ExtraBonusRow,
  money,
  sum as moneySum,
  monthlyWindow,
  parseMoney,
  toDecimalString,
} from '@paydesk/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activationDayJob, bonusRunJob } from '../src/areas/bonus/jobs';
import {
  activationDays,
  activationFrom,
  activationRowsOfToday,
  bonusRows,
  bonusRowsJson,
  clawbackRows,
} from '../src/areas/bonus/queries';
import { clawbackVolumeSums, runWindow } from '../src/areas/bonus/run';
import { loadConfig } from '../src/config';
import { jobDefinitions } from '../src/jobs';
import { scopeTransaction } from '../src/platform/scope';
import { Client, clearOfMidnight, startTestJobs, type TestApp, testApp } from './helpers';

/**
 * The bonus module through the API. Expected figures come from the raw rows (merchants, partners, groups) with
 * plain SQL and the rules as docs/bonus.md words them, not from the engine.
 */

let t: TestApp;
const clients = new Map<string, Client>();
async function as(email: string) {
  let c = clients.get(email);
  if (!c) {
    c = new Client(t.app);
    await c.signin(email);
    clients.set(email, c);
  }
  return c;
}
const ADMIN = 'admin@paydesk.local';
const EDITOR = 'sales.admin@paydesk.local';
const SALES = 'sales@paydesk.local';
const PARTNER = 'partner@summitpayments.example';
const SUMMIT = 'Summit Payment Group';

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

/** Thrown to roll a test's transaction back. */
class RollBack extends Error {}

/**
 * An answer written by PostgreSQL as JSON fits its output schema exactly: it parses, parsing changes nothing, and
 * each row has the schema's keys, no more and no fewer.
 */
function expectFitsExactly(
  answer: unknown[],
  schema: { safeParse: (v: unknown) => { success: boolean; data?: unknown }; element: { shape: object } },
) {
  const parsed = schema.safeParse(answer);
  expect(parsed.success).toBe(true);
  expect(parsed.data).toEqual(answer);
  for (const r of answer)
    expect(Object.keys(r as object).sort()).toEqual(Object.keys(schema.element.shape).sort());
}

/** A monthly window that has rows in the seeded data (the most recent one with at least 3). */
async function busyMonthlyWindow() {
  const { rows } = await sql<{
    window_start: string;
  }>`select window_start::text as window_start from bonus_rows
    where period = 'M' group by window_start having count(*) >= 3 order by window_start desc limit 1`.execute(
    t.db,
  );
  const start = rows[0]?.window_start;
  if (!start) throw new Error('the seed made no monthly bonuses');
  return monthlyWindow(start) as NonNullable<ReturnType<typeof monthlyWindow>>;
}

describe('seeded data', () => {
  it('has specs, rows of every kind, and the default clawback row', async () => {
    const { rows } = await sql<{ kind: string; n: number }>`
      select period as kind, count(*)::int as n from bonus_rows group by period
      union all select 'CB', count(*)::int from clawback_rows`.execute(t.db);
    const n = Object.fromEntries(rows.map((r) => [r.kind, r.n]));
    expect(n.M).toBeGreaterThan(0);
    expect(n.W).toBeGreaterThan(0);
    expect(n.CB).toBeGreaterThan(0);
    const list = await (await as(ADMIN)).get(bonusPaths.getClawbackList);
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toMatchObject({ iso_name: null, group_id: '' });
  });
});

describe('GetBonus', () => {
  it('answers the window with the figures the raw rows give', async () => {
    const w = await busyMonthlyWindow();
    const res = await (await as(ADMIN)).post(bonusPaths.getBonus, {
      bonusType: 'M',
      date: `${w.end.slice(0, 7)}-01`,
    });
    expect(res.statusCode).toBe(200);
    const got = res.json() as BonusRow[];
    const { rows: raw } = await sql<{
      mid: string;
      amount: string;
      approved_on: string;
      profile: string;
      iso: string;
    }>`
      select b.mid, b.bonus_amount::text as amount, m.approved_on::text as approved_on, m.profile, p.account_name as iso
      from bonus_rows b join merchants m on m.id = b.merchant_id join partners p on p.id = m.partner_id
      where b.period = 'M' and b.window_start = ${w.start}::date order by b.mid`.execute(t.db);
    expect(got.map((r) => [r.mid, r.bonus_amount, r.iso_name])).toEqual(
      raw.map((r) => [r.mid, r.amount, r.iso]),
    );
    for (const r of got) {
      expect(r.explanation.length).toBeGreaterThan(10);
      expect(['PayLo', 'Traditional']).toContain(r.merchant_profile);
    }
    // Approval bonuses: approved within the window (docs/bonus.md).
    for (const r of raw.filter((x) => got.find((g) => g.mid === x.mid)?.bonus_type === 'Approval'))
      expect(r.approved_on >= w.start && r.approved_on <= w.end).toBe(true);
  });

  it('is written by PostgreSQL as JSON that fits the output schema exactly, a worked moment as ISO text in UTC', async () => {
    const w = await busyMonthlyWindow();
    const { rows: picked } = await sql<{
      id: number;
      worked_datetime: Date | null;
      worked_by: string | null;
    }>`
      select id, worked_datetime, worked_by from bonus_rows where period = 'M' and window_start = ${w.start}::date
      order by id limit 1`.execute(t.db);
    const row = picked[0];
    if (!row) throw new Error('no row');
    // A moment with milliseconds, written in another time zone: the answer gives it as Date.toISOString() does.
    await sql`update bonus_rows set worked_datetime = '2026-03-04 00:06:07.891-05', worked_by = 'x@paydesk.local'
      where id = ${row.id}`.execute(t.db);
    try {
      const res = await (await as(ADMIN)).post(bonusPaths.getBonus, { bonusType: 'M', date: w.end });
      expect(res.statusCode).toBe(200);
      const answer = res.json() as Record<string, unknown>[];
      expect(answer.length).toBeGreaterThan(2);
      expectFitsExactly(answer, bonusEndpoints.getBonus.output);
      const worked = answer.find((r) => r.id === row.id);
      expect(worked?.worked_datetime).toBe(new Date('2026-03-04T05:06:07.891Z').toISOString());
      expect(
        answer
          .filter((r) => r.id !== row.id)
          .every((r) => r.worked_datetime === null || typeof r.worked_datetime === 'string'),
      ).toBe(true);
      // In the order the screen shows: by MID.
      const mids = answer.map((r) => String(r.mid));
      expect(mids).toEqual([...mids].sort());
    } finally {
      await sql`update bonus_rows set worked_datetime = ${row.worked_datetime}, worked_by = ${row.worked_by}
        where id = ${row.id}`.execute(t.db);
    }
  });

  it('is kept until a figure it shows changes: a day of volume, a note', async () => {
    const w = await busyMonthlyWindow();
    const admin = await as(ADMIN);
    const ask = async () =>
      (await admin.post(bonusPaths.getBonus, { bonusType: 'M', date: w.end })).json() as BonusRow[];
    // A row whose volume is summed from the daily rows, and one of its days up to the bonus date.
    const { rows: picked } = await sql<{ id: number; merchant_id: number; day: string; volume: string }>`
      select b.id, b.merchant_id, d.day::text as day, d.volume::text as volume
      from bonus_rows b join merchants m on m.id = b.merchant_id
      join merchant_daily d on d.merchant_id = b.merchant_id and d.day <= b.bonus_date
      where b.period = 'M' and b.window_start = ${w.start}::date
        and m.opened_on >= (select min(day) from merchant_daily)
      order by b.id, d.day limit 1`.execute(t.db);
    const day = picked[0];
    if (!day) throw new Error('no bonus row with daily volume');
    const before = await ask();
    expect(await ask()).toEqual(before);
    const row = before.find((r) => r.id === day.id);
    if (!row) throw new Error('row not answered');
    await sql`update merchant_daily set volume = volume + 1000 where merchant_id = ${day.merchant_id}
      and day = ${day.day}::date`.execute(t.db);
    try {
      const after = await ask();
      expect(after.find((r) => r.id === day.id)?.volume).toBe(
        toDecimalString(moneySum([parseMoney(row.volume), parseMoney('1000.00')])),
      );
      expect(after.filter((r) => r.id !== day.id)).toEqual(before.filter((r) => r.id !== day.id));
    } finally {
      await sql`update merchant_daily set volume = ${day.volume}::numeric where merchant_id = ${day.merchant_id}
        and day = ${day.day}::date`.execute(t.db);
    }
    expect(await ask()).toEqual(before);
  });

  it('pays the PayLo default on approval: $100 plus the general equipment amount, for merchants no named spec or exclusion takes', async () => {
    const w = await busyMonthlyWindow();
    const { rows } = await sql<{ mid: string; expected: string }>`
      select m.mid, (100 + coalesce(e.amount, 0))::numeric(12, 2)::text as expected
      from merchants m
      left join bonus_equipment e on e.model = m.equipment_model
      where m.profile = 'PayLo' and m.approved_on between ${w.start}::date and ${w.end}::date
        and not exists (select 1 from bonus_specs s where s.profile = 'PL' and s.iso_name is not null
          and m.group_id = any(string_to_array(s.group_id, ',')))
        and not exists (select 1 from bonus_excludes x where x.profile = 'PL' and x.period = 'M'
          and m.group_id = any(string_to_array(x.group_id, ',')))
        and not exists (select 1 from exclusive_equipment xe where xe.model = m.equipment_model
          and m.group_id = any(string_to_array(xe.group_id, ',')))
        and not exists (select 1 from bonus_rows o where o.mid = m.mid and o.period in ('W', 'M')
          and o.window_start <> ${w.start}::date)
      order by m.mid`.execute(t.db);
    const got = (
      (
        await (await as(ADMIN)).post(bonusPaths.getBonus, { bonusType: 'M', date: w.end })
      ).json() as BonusRow[]
    )
      .filter((r) => r.merchant_profile === 'PayLo' && r.explanation.startsWith('default spec'))
      .map((r) => [r.mid, r.bonus_amount]);
    expect(got).toEqual(rows.map((r) => [r.mid, r.expected]));
  });

  it('shows the volume a row of an old window had, where only monthly figures are kept', async () => {
    // The oldest monthly window with merchants that processed, from before the daily rows kept.
    const { rows: old } = await sql<{ window_start: string }>`
      select b.window_start::text as window_start from bonus_rows b
      where b.period = 'M' and b.bonus_date < (select min(day) from merchant_daily)
        and exists (select 1 from merchant_monthly mm where mm.merchant_id = b.merchant_id and mm.volume > 0
                    and mm.month <= b.bonus_date)
      group by b.window_start order by b.window_start limit 1`.execute(t.db);
    const start = old[0]?.window_start;
    expect(start).toBeDefined();
    const w = monthlyWindow(start as string) as NonNullable<ReturnType<typeof monthlyWindow>>;
    const got = (
      (
        await (await as(ADMIN)).post(bonusPaths.getBonus, { bonusType: 'M', date: w.end })
      ).json() as BonusRow[]
    ).filter((r) => r.window_start === w.start);
    expect(got.length).toBeGreaterThan(0);
    // Bounds from the monthly rows alone: the whole months before the bonus date's month at least, and at most
    // those plus the whole of that month (spread over its days, a part of it counts).
    const { rows: bounds } = await sql<{ mid: string; low: string; high: string }>`
      select m.mid,
        coalesce(sum(mm.volume) filter (where mm.month < date_trunc('month', b.bonus_date)), 0)::text as low,
        coalesce(sum(mm.volume), 0)::text as high
      from bonus_rows b join merchants m on m.id = b.merchant_id
      left join merchant_monthly mm on mm.merchant_id = b.merchant_id and mm.month <= b.bonus_date
      where b.period = 'M' and b.window_start = ${w.start}::date
      group by m.mid`.execute(t.db);
    const byMid = new Map(bounds.map((b) => [b.mid, b]));
    let total = 0;
    for (const r of got) {
      const b = byMid.get(r.mid);
      const volume = Number(r.volume);
      total += volume;
      expect(volume).toBeGreaterThanOrEqual(Number(b?.low) - 0.5);
      expect(volume).toBeLessThanOrEqual(Number(b?.high) + 0.5);
    }
    expect(total).toBeGreaterThan(0);
    // Exactly: each month without daily rows spread over its days (its volume over its days, rounded to the cent),
    // the days from the opening to the bonus date summed, and the last of them with volume (docs/bonus.md).
    const { rows: months } = await sql<{
      mid: string;
      opened_on: string;
      bonus_date: string;
      month: string | null;
      volume: string | null;
    }>`
      select m.mid, m.opened_on::text as opened_on, b.bonus_date::text as bonus_date, mm.month::text as month,
        mm.volume::text as volume
      from bonus_rows b join merchants m on m.id = b.merchant_id
      left join merchant_monthly mm on mm.merchant_id = b.merchant_id and mm.volume <> 0
        and mm.month >= date_trunc('month', m.opened_on) and mm.month <= b.bonus_date
        and not exists (select 1 from merchant_daily d where d.merchant_id = mm.merchant_id
          and d.day >= mm.month and d.day < mm.month + interval '1 month')
      where b.period = 'M' and b.window_start = ${w.start}::date`.execute(t.db);
    const want = new Map<string, { cents: number; last: string | null }>();
    for (const r of months) {
      const sums = want.get(r.mid) ?? { cents: 0, last: null };
      want.set(r.mid, sums);
      if (!r.month || !r.volume) continue;
      const [y, mo] = r.month.split('-').map(Number) as [number, number];
      const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
      const perDay = Math.round((Number(r.volume) * 100) / days);
      const monthEnd = `${r.month.slice(0, 8)}${String(days).padStart(2, '0')}`;
      const first = r.opened_on > r.month ? r.opened_on : r.month;
      const last = r.bonus_date < monthEnd ? r.bonus_date : monthEnd;
      if (last < first) continue;
      sums.cents += perDay * (Number(last.slice(8, 10)) - Number(first.slice(8, 10)) + 1);
      if (perDay > 0 && (sums.last === null || last > sums.last)) sums.last = last;
    }
    expect(got.map((r) => [r.mid, r.volume, r.last_deposit_date])).toEqual(
      got.map((r) => {
        const x = want.get(r.mid);
        return [r.mid, ((x?.cents ?? 0) / 100).toFixed(2), x?.last ?? null];
      }),
    );
  });

  it('refuses bad input with a 400 and a message', async () => {
    const c = await as(ADMIN);
    for (const body of [
      { bonusType: 'X', date: '2024-01-01' },
      { bonusType: 'M', date: '2024-02-30' },
      { bonusType: 'M', date: '2021-01-01' },
      { bonusType: 'W' },
    ]) {
      const res = await c.post(bonusPaths.getBonus, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
  });

  it('an ISO-bound user sees their ISO’s rows only and cannot mark or edit', async () => {
    const w = await busyMonthlyWindow();
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from bonus_rows b join partners p on p.id = b.partner_id
      where b.period = 'M' and b.window_start = ${w.start}::date and p.account_name = ${SUMMIT}`.execute(
      t.db,
    );
    // Staff's answer is kept first: the ISO's is kept apart from it.
    expect(
      (
        (
          await (await as(ADMIN)).post(bonusPaths.getBonus, { bonusType: 'M', date: w.end })
        ).json() as BonusRow[]
      ).length,
    ).toBeGreaterThan(rows[0]?.n ?? 0);
    const partner = await as(PARTNER);
    const got = (
      await partner.post(bonusPaths.getBonus, { bonusType: 'M', date: w.end })
    ).json() as BonusRow[];
    expect(got.length).toBe(rows[0]?.n);
    expect(got.every((r) => r.iso_name === SUMMIT)).toBe(true);
    // The same for clawback runs, whose answer is kept per scope too: the newest run with Summit's rows and the
    // newest with another ISO's (one run may hold both; which runs the seed makes depends on the day it ran).
    const { rows: runs } = await sql<{ run_date: string; summit: number; every: number }>`
      select c.run_date::text as run_date, count(*) filter (where p.account_name = ${SUMMIT})::int as summit,
        count(*)::int as every
      from clawback_rows c join partners p on p.id = c.partner_id
      group by c.run_date order by c.run_date desc`.execute(t.db);
    const withSummit = runs.find((r) => r.summit > 0);
    const withOthers = runs.find((r) => r.every > r.summit);
    if (!withSummit || !withOthers)
      throw new Error('the seed made no clawbacks of Summit and of another ISO');
    for (const run of new Set([withSummit, withOthers])) {
      const staffClawbacks = (
        await (await as(ADMIN)).post(bonusPaths.getClawback, { date: run.run_date })
      ).json() as ClawbackRow[];
      expect(staffClawbacks.length, run.run_date).toBe(run.every);
      const isoClawbacks = (
        await partner.post(bonusPaths.getClawback, { date: run.run_date })
      ).json() as ClawbackRow[];
      expect(isoClawbacks.length, run.run_date).toBe(run.summit);
      expect(isoClawbacks.every((r) => r.iso_name === SUMMIT)).toBe(true);
    }
    const anyRow = await t.db.selectFrom('bonus_rows').select('id').limit(1).executeTakeFirstOrThrow();
    expect((await partner.post(bonusPaths.updateDoNotPay, { id: anyRow.id, do_not_pay: 1 })).statusCode).toBe(
      403,
    );
    expect((await partner.get(bonusPaths.getClawbackList)).statusCode).toBe(403);
    expect((await partner.post(bonusPaths.getActivityLog, { log_type: 'BNS' })).statusCode).toBe(403);
  });
});

describe('marks and idempotent reruns', () => {
  it('needs bonus_edit; a rerun keeps do-not-pay and notes, never duplicates, and replaces only unworked rows', async () => {
    const w = await busyMonthlyWindow();
    const rowsBefore = await t.db
      .selectFrom('bonus_rows')
      .selectAll()
      .where('period', '=', 'M')
      .where('window_start', '=', w.start)
      .orderBy('id')
      .execute();
    const [first, second] = rowsBefore;
    if (!first || !second) throw new Error('need two rows');
    expect(
      (await (await as(SALES)).post(bonusPaths.updateDoNotPay, { id: first.id, do_not_pay: 1 })).statusCode,
    ).toBe(403);
    const editor = await as(EDITOR);
    expect(
      (await editor.post(bonusPaths.updateDoNotPay, { id: first.id, do_not_pay: 1 })).json(),
    ).toMatchObject({ success: true });
    expect(
      (await editor.post(bonusPaths.updateNote, { id: second.id, note: 'Checked with the ISO' })).json(),
    ).toMatchObject({ success: true });
    expect((await editor.post(bonusPaths.updateNote, { id: 2_000_000_000, note: 'x' })).statusCode).toBe(404);

    await runWindow(t.db, w, null);
    await runWindow(t.db, w, null);
    const after = await t.db
      .selectFrom('bonus_rows')
      .selectAll()
      .where('period', '=', 'M')
      .where('window_start', '=', w.start)
      .orderBy('mid')
      .execute();
    expect(after.map((r) => r.mid)).toEqual(
      [...rowsBefore].sort((a, b) => a.mid.localeCompare(b.mid)).map((r) => r.mid),
    );
    const kept1 = after.find((r) => r.mid === first.mid);
    const kept2 = after.find((r) => r.mid === second.mid);
    expect(kept1).toMatchObject({ id: first.id, do_not_pay: true, worked_by: EDITOR });
    expect(kept2).toMatchObject({ id: second.id, note: 'Checked with the ISO' });
    // Unworked rows were replaced (new ids), with the same figures.
    const other = after.find(
      (r) => r.mid !== first.mid && r.mid !== second.mid && !rowsBefore.some((b) => b.id === r.id),
    );
    if (rowsBefore.length > 2) expect(other).toBeTruthy();
    const sum = (rows: { bonus_amount: string }[]) =>
      toDecimalString(moneySum(rows.map((r) => parseMoney(r.bonus_amount))));
    expect(sum(after)).toBe(sum(rowsBefore));
  });

  it('run now queues a job for the window (manage_jobs); preview computes without saving', async () => {
    const admin = await as(ADMIN);
    const w = await busyMonthlyWindow();
    const run = await admin.post(bonusPaths.run, { kind: 'M', date: w.start });
    expect(run.statusCode).toBe(200);
    expect(run.json().window).toMatchObject({ start: w.start, end: w.end });
    expect((await (await as(EDITOR)).post(bonusPaths.run, { kind: 'M' })).statusCode).toBe(403);
    const before = await sql<{ n: number }>`select count(*)::int as n from bonus_rows`.execute(t.db);
    const preview = await admin.post(bonusPaths.preview, { kind: 'M', date: w.start });
    expect(preview.statusCode).toBe(200);
    const saved = await t.db
      .selectFrom('bonus_rows')
      .select('mid')
      .where('period', '=', 'M')
      .where('window_start', '=', w.start)
      .execute();
    // The preview of a stored window computes the same merchants, minus none (worked rows stay too).
    expect(new Set(preview.json().bonuses.map((b: { mid: string }) => b.mid))).toEqual(
      new Set(saved.map((r) => r.mid)),
    );
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from bonus_rows`.execute(t.db)).rows[0]?.n,
    ).toBe(before.rows[0]?.n);
  });
});

describe('the run job', () => {
  it('run now is worked by the job queue: the window is recomputed and logged as a run by the admin', async () => {
    const w = await busyMonthlyWindow();
    const before = await t.db
      .selectFrom('bonus_runs')
      .select('ran_at')
      .where('kind', '=', 'M')
      .where('window_start', '=', w.start)
      .executeTakeFirstOrThrow();
    const res = await (await as(ADMIN)).post(bonusPaths.run, { kind: 'M', date: w.end });
    expect(res.statusCode).toBe(200);
    const worker = await startTestJobs(t.connected, { work: true, definitions: [bonusRunJob] });
    try {
      let after = before;
      for (let i = 0; i < 60 && after.ran_at.getTime() === before.ran_at.getTime(); i++) {
        await new Promise((r) => setTimeout(r, 500));
        after = await t.db
          .selectFrom('bonus_runs')
          .select('ran_at')
          .where('kind', '=', 'M')
          .where('window_start', '=', w.start)
          .executeTakeFirstOrThrow();
      }
      expect(after.ran_at.getTime()).toBeGreaterThan(before.ran_at.getTime());
    } finally {
      await worker.stop();
    }
    const run = await t.db
      .selectFrom('bonus_runs')
      .select('ran_by')
      .where('kind', '=', 'M')
      .where('window_start', '=', w.start)
      .executeTakeFirstOrThrow();
    expect(run.ran_by).toBe(ADMIN);
  });
});

describe('clawbacks', () => {
  /**
   * The oracle of clawbackVolumeSums: each merchant's days as bonus_daily_volume lists them (a day's row, else its
   * month's volume spread over the month), summed by the domain's clawbackVolumes, against the sums in SQL. Every
   * other merchant's rule has volume days, so both kinds of range are summed. Returns how many were compared.
   */
  async function expectSumsAsDomain(
    db: typeof t.db,
    runDate: string,
    merchants: { id: number; opened_on: string }[],
  ) {
    const rules = merchants.map((_, i) => ({ volumeDays: i % 2 === 0 ? 90 : 0 }));
    const ranges = merchants.map((m, i) => {
      const days = rules[i]?.volumeDays ?? 0;
      return {
        id: m.id,
        opened: m.opened_on,
        within: days > 0 ? addDays(m.opened_on, days - 1) : m.opened_on,
        hasWithin: days > 0,
      };
    });
    const got = await clawbackVolumeSums(db, ranges, runDate);
    const minOpened = merchants.reduce((min, m) => (m.opened_on < min ? m.opened_on : min), runDate);
    const { rows: days } = await sql<{ merchant_id: number; day: string; volume: string }>`
      select merchant_id, day::text as day, volume::text as volume
      from bonus_daily_volume(${merchants.map((m) => m.id)}::int[], ${minOpened}::date, ${runDate}::date)`.execute(
      db,
    );
    merchants.forEach((m, i) => {
      const volumes = days
        .filter((d) => d.merchant_id === m.id)
        .map((d) => ({ day: d.day, volume: parseMoney(d.volume) }))
        .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
      const expected = clawbackVolumes(
        { openedOn: m.opened_on, volumes },
        { volumeDays: rules[i]?.volumeDays ?? 0 },
        runDate,
      );
      const none = {
        totalVolume: money(0),
        volumeWithinDays: money(0),
        lastMonthVolume: money(0),
        lastDepositDate: null,
      };
      expect({ runDate, id: m.id, ...(got.get(m.id) ?? none) }).toEqual({ runDate, id: m.id, ...expected });
    });
    return merchants.length;
  }

  const today = async () => {
    const state = await t.db.selectFrom('demo_state').select('caught_up_to').executeTakeFirstOrThrow();
    return new Date(state.caught_up_to).toISOString().slice(0, 10);
  };

  it("sums each merchant's clawback figures as the domain sums its days (daily rows, else the month spread)", async () => {
    const now = await today();
    let compared = 0;
    let spreadAndDaily = 0;
    // Today (daily rows and spread months), about 8 months back (both) and two years back (spread months only).
    for (const runDate of [now, addDays(now, -240), addDays(now, -730)]) {
      const { rows: merchants } = await sql<{ id: number; opened_on: string }>`
        select id, opened_on::text as opened_on from merchants
        where opened_on <= ${runDate}::date and opened_on > ${runDate}::date - 500 order by id limit 400`.execute(
        t.db,
      );
      expect(merchants.length).toBeGreaterThan(20);
      const { rows: mixed } = await sql<{ n: number }>`
        select count(distinct merchant_id)::int as n from merchant_daily
        where merchant_id = any(${merchants.map((m) => m.id)}::int[]) and day <= ${runDate}::date`.execute(
        t.db,
      );
      if (runDate === now) spreadAndDaily = mixed[0]?.n ?? 0;
      compared += await expectSumsAsDomain(t.db, runDate, merchants);
    }
    expect(compared).toBeGreaterThan(100);
    expect(spreadAndDaily).toBeGreaterThan(0);
  });

  it('sums the edges as the domain does: volume on the opening day, a refund day after the last deposit', async () => {
    const now = await today();
    await t.db
      .transaction()
      .execute(async (trx) => {
        const { rows: merchants } = await sql<{ id: number; opened_on: string }>`
          select m.id, m.opened_on::text as opened_on from merchants m
          where m.opened_on > ${now}::date - 200 and m.opened_on <= ${now}::date - 40
            and exists (select 1 from merchant_daily d where d.merchant_id = m.id and d.volume > 0)
          order by m.id limit 40`.execute(trx);
        expect(merchants.length).toBe(40);
        const ids = merchants.map((m) => m.id);
        // The first twenty take volume on their opening day (a rule without volume days still counts none of
        // it within days); the last twenty's last day with a row becomes a refund (negative), so the last
        // deposit is an earlier day.
        const opening =
          await sql`insert into merchant_daily (merchant_id, partner_id, day, volume, transactions,
            chargeback_volume, chargebacks, refund_volume, refunds)
          select id, partner_id, opened_on, 55.55, 1, 0, 0, 0, 0 from merchants where id = any(${ids.slice(0, 20)}::int[])
          on conflict (merchant_id, day) do update set volume = 55.55`.execute(trx);
        expect(Number(opening.numAffectedRows)).toBe(20);
        const refund = await sql`update merchant_daily d set volume = -20 from (
            select merchant_id, max(day) as day from merchant_daily
            where merchant_id = any(${ids.slice(20)}::int[]) and day <= ${now}::date group by merchant_id) l
          where d.merchant_id = l.merchant_id and d.day = l.day`.execute(trx);
        expect(Number(refund.numAffectedRows)).toBe(20);
        expect(await expectSumsAsDomain(trx, now, merchants)).toBe(40);
        throw new RollBack();
      })
      .catch((e) => {
        if (!(e instanceof RollBack)) throw e;
      });
  });

  it('flags CBY when the merchant closed by the run date, CBN otherwise; do-not-clawback only on CBN', async () => {
    const { rows } = await sql<{ run_date: string }>`select run_date::text as run_date from clawback_rows
      group by run_date order by count(*) desc, run_date desc limit 1`.execute(t.db);
    const runDate = rows[0]?.run_date as string;
    const got = (
      await (await as(ADMIN)).post(bonusPaths.getClawback, { date: runDate })
    ).json() as ClawbackRow[];
    expect(got.length).toBeGreaterThan(0);
    // Written by PostgreSQL as JSON (clawbackRowsJson): the rows the typed query gives, in its order, fitting the
    // output schema exactly (no key more or less). Asked again unchanged, the kept answer is the same.
    expect(got).toEqual(await clawbackRows(t.db, runDate));
    expectFitsExactly(got, bonusEndpoints.getClawback.output);
    expect((await (await as(ADMIN)).post(bonusPaths.getClawback, { date: runDate })).json()).toEqual(got);
    const { rows: raw } = await sql<{
      mid: string;
      closed_on: string | null;
    }>`select m.mid, m.closed_on::text as closed_on
      from clawback_rows c join merchants m on m.id = c.merchant_id where c.run_date = ${runDate}::date`.execute(
      t.db,
    );
    const closed = new Map(raw.map((r) => [r.mid, r.closed_on]));
    for (const r of got) {
      const c = closed.get(r.mid);
      expect(r.clawback_flag).toBe(c !== null && c !== undefined && c <= runDate ? 'CBY' : 'CBN');
      expect(r.clawback_date).toBe(runDate);
    }
    const editor = await as(EDITOR);
    const cby = got.find((r) => r.clawback_flag === 'CBY');
    if (cby)
      expect(
        (
          await editor.post(bonusPaths.updateDoNotClawback, {
            mid: cby.mid,
            clawback_date: runDate,
            do_not_clawback: 1,
          })
        ).json(),
      ).toMatchObject({ success: false, addable: false });
    const cbn = got.find((r) => r.clawback_flag === 'CBN');
    if (cbn) {
      expect(
        (
          await editor.post(bonusPaths.updateDoNotClawback, {
            mid: cbn.mid,
            clawback_date: runDate,
            do_not_clawback: 1,
          })
        ).json(),
      ).toMatchObject({ success: true });
      // The answer is kept (migration 2026_12_13_0040): the mark alone, a write to the clawback rows, reaches it.
      const marked = (await editor.post(bonusPaths.getClawback, { date: runDate })).json() as ClawbackRow[];
      expect(marked.find((r) => r.mid === cbn.mid)?.do_not_clawback).toBe(true);
      expect(marked.filter((r) => r.mid !== cbn.mid)).toEqual(got.filter((r) => r.mid !== cbn.mid));
      const w = { kind: 'CB' as const, start: runDate, end: runDate, runDate };
      await runWindow(t.db, w, null);
      const again = (await editor.post(bonusPaths.getClawback, { date: runDate })).json() as ClawbackRow[];
      expect(again.find((r) => r.mid === cbn.mid)?.do_not_clawback).toBe(true);
      expect(again.map((r) => r.mid).sort()).toEqual(got.map((r) => r.mid).sort());
    }
  });

  it('the default clawback row cannot be deleted', async () => {
    const res = await (await as(EDITOR)).post(bonusPaths.deleteClawback, { group_id: '' });
    expect(res.json()).toMatchObject({
      success: false,
      addable: false,
      message: 'The default clawback row cannot be deleted',
    });
    expect(
      (await t.db.selectFrom('clawback_specs').select('id').where('group_id', '=', '').execute()).length,
    ).toBe(1);
  });
});

describe('specifications', () => {
  async function summitGroups() {
    const { rows } = await sql<{
      group_id: string;
    }>`select g.group_id from groups g join partners p on p.id = g.partner_id
      where p.account_name = ${SUMMIT} order by g.group_id`.execute(t.db);
    return rows.map((r) => r.group_id);
  }

  it('save with force: overlapping groups warn (addable), force moves them; a foreign group is not addable', async () => {
    const editor = await as(EDITOR);
    const [g1, g2] = await summitGroups();
    if (!g1 || !g2) throw new Error('Summit needs two groups');
    const base = {
      profile: 'TR',
      period: 'M',
      amount: 175,
      iso_name: SUMMIT,
      on_activation: 0,
      placement_only: 0,
    };
    // Force first: the seed's specs may hold these groups already.
    expect(
      (
        await editor.post(bonusPaths.addBonusIso, { ...base, group_id: ` ${g1} , ${g2}`, force: true })
      ).json(),
    ).toMatchObject({ success: true });
    const warn = (await editor.post(bonusPaths.addBonusIso, { ...base, period: 'W', group_id: g2 })).json();
    expect(warn).toMatchObject({ success: false, addable: true });
    expect(warn.message).toContain(g2);
    const forced = (
      await editor.post(bonusPaths.addBonusIso, { ...base, period: 'W', group_id: g2, force: true })
    ).json();
    expect(forced).toMatchObject({ success: true });
    const monthly = (
      await editor.post(bonusPaths.getBonusIsoList, { profile: 'TR', period: 'M' })
    ).json() as { group_id: string }[];
    expect(monthly.some((s) => s.group_id === g1)).toBe(true);
    expect(monthly.some((s) => s.group_id.split(',').includes(g2))).toBe(false);
    const { rows: other } = await sql<{
      group_id: string;
    }>`select g.group_id from groups g join partners p on p.id = g.partner_id
      where p.account_name <> ${SUMMIT} limit 1`.execute(t.db);
    const foreign = (
      await editor.post(bonusPaths.addBonusIso, { ...base, group_id: other[0]?.group_id, force: true })
    ).json();
    expect(foreign).toMatchObject({ success: false, addable: false });
    expect((await editor.post(bonusPaths.addBonusIso, { ...base, group_id: '' })).json()).toMatchObject({
      success: false,
      addable: false,
    });
    // Placement Only forces amount 0 and pay on approval.
    expect(
      (
        await editor.post(bonusPaths.addBonusIso, {
          ...base,
          period: 'W',
          group_id: g2,
          edit: g2,
          placement_only: 1,
          on_activation: 1,
          amount: 90,
        })
      ).json(),
    ).toMatchObject({ success: true });
    const weekly = (await editor.post(bonusPaths.getBonusIsoList, { profile: 'TR', period: 'W' })).json() as {
      group_id: string;
      amount: string;
      on_activation: boolean;
    }[];
    expect(weekly.find((s) => s.group_id === g2)).toMatchObject({ amount: '0.00', on_activation: false });
    expect(
      (await editor.post(bonusPaths.deleteBonusIso, { group_id: g2, profile: 'TR', period: 'W' })).json(),
    ).toMatchObject({ success: true });
    expect(
      (await editor.post(bonusPaths.deleteBonusIso, { group_id: g2, profile: 'TR', period: 'W' })).json(),
    ).toMatchObject({ success: false });
  });

  it('every list and change call answers, and only with bonus_edit', async () => {
    const editor = await as(EDITOR);
    const sales = await as(SALES);
    const [g1] = await summitGroups();
    for (const path of [
      bonusPaths.getIsoList,
      bonusPaths.getEquipmentList,
      bonusPaths.getBonusEquipmentList,
      bonusPaths.getExclusiveBonusEquipmentList,
      bonusPaths.getActivationList,
      bonusPaths.getExtraBonusIsoList,
      bonusPaths.getActivation,
      bonusPaths.getMatches,
      bonusPaths.windows,
    ])
      expect((await sales.get(path)).statusCode, path).toBe(200);
    const changes: [string, unknown][] = [
      [bonusPaths.addExcludeBonusIso, { profile: 'PL', period: 'M', group_id: g1 }],
      [bonusPaths.deleteExcludeBonusIso, { profile: 'PL', period: 'M', group_id: g1 }],
      [
        bonusPaths.addClawback,
        {
          group_id: g1,
          closure_days: 30,
          volume_days: 45,
          volume_threshold: 300,
          iso_name: SUMMIT,
          non_processing: 1,
          monthly_volume_threshold: 0,
        },
      ],
      [bonusPaths.deleteClawback, { group_id: g1 }],
      [bonusPaths.addActivation, { group_id: g1, volume_days: 20, volume_threshold: 100, iso_name: SUMMIT }],
      [bonusPaths.deleteActivation, { group_id: g1 }],
      [
        bonusPaths.addExtraBonusIso,
        {
          group_id: g1,
          extra_deals: 10,
          extra_amount: 200,
          extra_type: 'EPD',
          start_date: '2025-01-01',
          end_date: '2025-12-31',
          enabled: 1,
          iso_name: SUMMIT,
        },
      ],
      [bonusPaths.deleteExtraBonusIso, { group_id: g1 }],
      [bonusPaths.addBonusEquipment, { title: 'Test Pad', model: 'TP1', amount: 12.5 }],
      [bonusPaths.deleteBonusEquipment, { title: 'Test Pad' }],
      [
        bonusPaths.addExclusiveEquipment,
        { group_id: g1, title: 'Test Pad', model: 'TP1', amount: 20, iso_name: SUMMIT },
      ],
      [bonusPaths.deleteExclusiveEquipment, { group_id: g1 }],
    ];
    for (const [path, body] of changes) {
      expect((await sales.post(path, body)).statusCode, path).toBe(403);
      const res = await editor.post(path, body);
      expect(res.statusCode, path).toBe(200);
      expect(res.json(), path).toMatchObject({ success: true });
    }
    expect(
      (
        await editor.post(bonusPaths.addExtraBonusIso, {
          group_id: g1,
          extra_deals: 0,
          extra_amount: 200,
          extra_type: 'EPD',
          start_date: '2025-01-01',
          end_date: '2025-12-31',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await editor.post(bonusPaths.addExtraBonusIso, {
          group_id: g1,
          extra_deals: 3,
          extra_amount: 200,
          extra_type: 'EPD',
          start_date: '2025-12-01',
          end_date: '2025-01-31',
        })
      ).statusCode,
    ).toBe(400);
  });

  it('the activity log holds runs and manual changes, newest first', async () => {
    const log = (
      await (
        await as(ADMIN)
      ).post(bonusPaths.getActivityLog, { log_type: 'BNS', row_count: 100, page_num: 0 })
    ).json() as { date_time: string; user: string; log_description: string }[];
    expect(log.length).toBeGreaterThan(5);
    expect(log.some((l) => l.log_description.startsWith('Deleted the exclusive equipment'))).toBe(true);
    expect(log.some((l) => /Monthly run for .* rows written/.test(l.log_description))).toBe(true);
    expect([...log].sort((a, b) => b.date_time.localeCompare(a.date_time)).map((l) => l.date_time)).toEqual(
      log.map((l) => l.date_time),
    );
    expect((await (await as(ADMIN)).post(bonusPaths.getActivityLog, { log_type: 'ACH' })).statusCode).toBe(
      400,
    );
  });
});

describe('weekly, Monthly Extra and activation', () => {
  it('GetBonus weekly answers the Thursday-to-Wednesday window holding the date', async () => {
    const { rows } = await sql<{ window_start: string; n: number }>`select window_start::text as window_start,
      count(*)::int as n from bonus_rows where period = 'W' group by 1 order by 2 desc, 1 desc limit 1`.execute(
      t.db,
    );
    const start = rows[0]?.window_start as string;
    // The Wednesday ending the window: six days after its Thursday.
    const wednesday = new Date(Date.parse(`${start}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
    const got = (
      await (await as(ADMIN)).post(bonusPaths.getBonus, { bonusType: 'W', date: wednesday })
    ).json() as BonusRow[];
    expect(got.length).toBe(rows[0]?.n);
    expect(new Date(`${start}T00:00:00Z`).getUTCDay()).toBe(4);
    expect(got.every((r) => r.window_start === start && r.period === 'W')).toBe(true);
  });

  it('GetExtraBonus: Reg. Bonus Paid is No when the regular bonus is do-not-pay, else Yes for Per Deal', async () => {
    const { rows } = await sql<{
      month: string;
    }>`select to_char(window_start, 'YYYY-MM-DD') as month from bonus_rows
      where period = 'ME' group by 1 order by count(*) desc, 1 desc limit 1`.execute(t.db);
    const month = rows[0]?.month;
    if (!month) throw new Error('the seed made no extra bonuses');
    const got = (
      await (await as(ADMIN)).post(bonusPaths.getExtraBonus, { date: month })
    ).json() as ExtraBonusRow[];
    expect(got.length).toBeGreaterThan(0);
    const { rows: regular } = await sql<{
      mid: string;
      do_not_pay: boolean;
    }>`select mid, do_not_pay from bonus_rows
      where period in ('W', 'M') and mid = any(${got.map((r) => r.mid)}::text[])`.execute(t.db);
    const dnp = new Map(regular.map((r) => [r.mid, r.do_not_pay]));
    for (const r of got) {
      expect(['EPD', 'EFR']).toContain(r.bonus_type);
      expect(r.extra_bonus).toBe(r.bonus_amount);
      expect(r.reg_bonus_paid).toBe(dnp.get(r.mid) ? 'No' : r.bonus_type === 'EPD' ? 'Yes' : 'No');
      expect(r.window_start).toBe(month);
    }
  });

  it('GetActivation: remaining days never below 0, none left once activated', async () => {
    const got = (await (await as(ADMIN)).get(bonusPaths.getActivation)).json() as BonusActivationRow[];
    expect(got.length).toBeGreaterThan(0);
    for (const r of got) {
      expect(r.days).toBeGreaterThanOrEqual(0);
      if (r.activation_status === 'Activated') expect(r.days).toBe(0);
      if (r.activation_status === 'Activated')
        expect(parseMoney(r.volume) >= parseMoney(r.volume_threshold)).toBe(true);
      else expect(parseMoney(r.volume) < parseMoney(r.volume_threshold)).toBe(true);
    }
    // The oracle for the volumes: each merchant's days from its approval through its volume days (or today), as
    // the database's own function lists them, summed in SQL.
    const { rows: summed } = await sql<{ mid: string; volume: string }>`
      select x.mid, coalesce(sum(v.volume), 0)::numeric(14, 2)::text as volume
      from unnest(${got.map((r) => r.mid)}::text[], ${got.map((r) => r.volume_days)}::int[]) x(mid, days)
      join merchants m on m.mid = x.mid
      left join lateral bonus_daily_volume(array[m.id], m.approved_on,
        least(current_date, m.approved_on + greatest(x.days, 1) - 1)) v on true
      group by x.mid`.execute(t.db);
    const want = new Map(summed.map((r) => [r.mid, r.volume]));
    for (const r of got) expect(r.volume, r.mid).toBe(want.get(r.mid));
    expect(got.some((r) => parseMoney(r.volume) > 0n)).toBe(true);
    const partner = (await (await as(PARTNER)).get(bonusPaths.getActivation)).json() as BonusActivationRow[];
    expect(partner.every((r) => r.iso_name === SUMMIT)).toBe(true);
  });

  // The list is kept per scope (platform/answerCache.ts): a day's figures and the specifications it reads must
  // reach it at once, for staff and for the merchant's ISO.
  it('GetActivation follows a change to a day’s volume and to the specifications', async () => {
    const list = async (who: string) =>
      bonusEndpoints.getActivation.output.parse(
        (await (await as(who)).get(bonusPaths.getActivation)).json(),
      ) as BonusActivationRow[];
    const before = await list(ADMIN);
    await list(ADMIN); // kept
    // A pending merchant whose group has no specification of its own (the defaults), and its approval day.
    const { rows: days } = await sql<{
      id: number;
      partner_id: number;
      mid: string;
      day: string;
      volume: string | null;
      partner: string;
    }>`
      select m.id, m.partner_id, m.mid, m.approved_on::text as day, d.volume::text as volume,
             p.account_name as partner
      from merchants m join partners p on p.id = m.partner_id
      left join merchant_daily d on d.merchant_id = m.id and d.day = m.approved_on
      where m.mid = any(${before.filter((r) => r.activation_status === 'Pending').map((r) => r.mid)}::text[])
        and m.approved_on <= current_date
        and not exists (select 1 from activation_specs s where position(m.group_id in s.group_id) > 0)
      order by m.mid limit 1`.execute(t.db);
    const picked = days[0];
    if (!picked) throw new Error('no pending merchant under the default specification');
    const was = before.find((r) => r.mid === picked.mid) as BonusActivationRow;
    const asIso = await (async () => {
      const { rows } = await sql<{ email: string }>`
        select u.email from users u join partners p on p.id = u.partner_id
        where p.account_name = ${picked.partner} limit 1`.execute(t.db);
      return rows[0]?.email;
    })();
    try {
      // A million on its approval day (a day's row in a month otherwise spread from its monthly figure replaces
      // the spread, so only a lower bound is known here).
      await sql`insert into merchant_daily (merchant_id, partner_id, day, volume, transactions, chargeback_volume,
          chargebacks, refund_volume, refunds)
        values (${picked.id}, ${picked.partner_id}, ${picked.day}::date, 1000000, 1, 0, 0, 0, 0)
        on conflict (merchant_id, day) do update set volume = merchant_daily.volume + 1000000`.execute(t.db);
      const after = (await list(ADMIN)).find((r) => r.mid === picked.mid);
      expect(after?.activation_status).toBe('Activated');
      expect(after?.activated_on).toBe(picked.day);
      expect(parseMoney(after?.volume ?? '0') >= parseMoney('1000000')).toBe(true);
      if (asIso)
        expect((await list(asIso)).find((r) => r.mid === picked.mid)?.activation_status).toBe('Activated');
      // A specification for the merchant's group (it had none: the defaults), above the new volume.
      await sql`insert into activation_specs (group_id, volume_days, volume_threshold)
        select ${was.group_id}, ${was.volume_days}, 99999999`.execute(t.db);
      const raised = (await list(ADMIN)).find((r) => r.mid === picked.mid);
      expect(raised?.volume_threshold).toBe('99999999.00');
      expect(raised?.activation_status).not.toBe('Activated');
    } finally {
      await sql`delete from activation_specs where volume_threshold = 99999999`.execute(t.db);
      if (picked.volume === null)
        await sql`delete from merchant_daily where merchant_id = ${picked.id} and day = ${picked.day}::date`.execute(
          t.db,
        );
      else
        await sql`update merchant_daily set volume = ${picked.volume}::numeric where merchant_id = ${picked.id}
          and day = ${picked.day}::date`.execute(t.db);
    }
    expect((await list(ADMIN)).find((r) => r.mid === picked.mid)).toEqual(was);
  });

  // The list is kept in parts, one per approval day (migration 2026_12_13_0010): a merchant's edit must reach the
  // list and raise its approval day's version alone (before and after a moved day), a column the list does not
  // read none, and the whole list kept in parts must equal the list made afresh.
  it('GetActivation kept by approval day: edits reach the list and raise their days alone', async () => {
    const list = async (who: string) =>
      bonusEndpoints.getActivation.output.parse(
        (await (await as(who)).get(bonusPaths.getActivation)).json(),
      ) as BonusActivationRow[];
    const dayVersions = async () =>
      new Map(
        (
          await sql<{ part: string; version: string }>`select part, version::text as version
            from answer_part_versions where name = 'activation'`.execute(t.db)
        ).rows.map((r) => [r.part, r.version]),
      );
    const ownVersion = async () =>
      (
        await sql<{ version: string }>`select version::text as version from answer_versions
          where name = 'activation'`.execute(t.db)
      ).rows[0]?.version;
    // The days whose version changed between two readings.
    const raised = (a: Map<string, string>, b: Map<string, string>) =>
      [...new Set([...a.keys(), ...b.keys()])].filter((d) => a.get(d) !== b.get(d)).sort();
    // Every part made afresh (the answer's own version raised), to compare the kept list with.
    const afresh = async (who: string) => {
      await sql`update answer_versions set version = version + 1 where name = 'activation'`.execute(t.db);
      return list(who);
    };

    const before = await list(ADMIN);
    const { rows: picked } = await sql<{
      id: number;
      mid: string;
      dba: string;
      day: string;
      equipment_model: string | null;
      partner_id: number;
      partner: string;
    }>`
      select m.id, m.mid, m.dba, m.approved_on::text as day, m.equipment_model, m.partner_id,
             p.account_name as partner
      from merchants m join partners p on p.id = m.partner_id
      where m.mid = any(${before.map((r) => r.mid)}::text[]) and p.account_name = ${SUMMIT}
      order by m.approved_on desc, m.mid limit 1`.execute(t.db);
    const m = picked[0];
    if (!m) throw new Error('no Summit merchant in the activation list');
    const otherDay = before.map((r) => r.mid).find((mid) => mid !== m.mid) as string;
    const { rows: other } = await sql<{ day: string }>`select approved_on::text as day from merchants
      where mid = ${otherDay}`.execute(t.db);
    const moveTo = other.find((r) => r.day !== m.day)?.day ?? m.day;
    try {
      // A column the list does not read: no day raised, nothing made again.
      const v0 = await dayVersions();
      await sql`update merchants set equipment_model = 'Activation probe' where id = ${m.id}`.execute(t.db);
      expect(raised(v0, await dayVersions())).toEqual([]);
      expect(await list(ADMIN)).toEqual(before);

      // Its DBA: its approval day alone, and the list (staff and its ISO's) shows the new name.
      const v1 = await dayVersions();
      await sql`update merchants set dba = '  Activation renamed' where id = ${m.id}`.execute(t.db);
      expect(raised(v1, await dayVersions())).toEqual([m.day]);
      const renamed = before.map((r) => (r.mid === m.mid ? { ...r, dba_name: '  Activation renamed' } : r));
      expect(await list(ADMIN)).toEqual(renamed);
      expect((await list(PARTNER)).find((r) => r.mid === m.mid)?.dba_name).toBe('  Activation renamed');

      // Its approval day moved: both days raised, and the kept list is the list made afresh.
      const v2 = await dayVersions();
      await sql`update merchants set approved_on = ${moveTo}::date where id = ${m.id}`.execute(t.db);
      expect(raised(v2, await dayVersions())).toEqual([...new Set([m.day, moveTo])].sort());
      const moved = await list(ADMIN);
      expect(moved).toEqual(await afresh(ADMIN));

      // Its ISO renamed: the list shows the new ISO name (its merchants' days raised).
      await sql`update partners set account_name = ${`${m.partner} (renamed)`} where id = ${m.partner_id}`.execute(
        t.db,
      );
      const isoRenamed = await list(ADMIN);
      expect(isoRenamed.find((r) => r.mid === m.mid)?.iso_name).toBe(`${m.partner} (renamed)`);
      expect(isoRenamed).toEqual(await afresh(ADMIN));
      // Bonus rows are not read: marking one raises nothing.
      const v3 = await dayVersions();
      const own3 = await ownVersion();
      await sql`update bonus_rows set note = coalesce(note, '') where id = (select min(id) from bonus_rows)`.execute(
        t.db,
      );
      expect(raised(v3, await dayVersions())).toEqual([]);
      expect(await ownVersion()).toBe(own3);
    } finally {
      await sql`update partners set account_name = ${m.partner} where id = ${m.partner_id}`.execute(t.db);
      await sql`update merchants set dba = ${m.dba}, approved_on = ${m.day}::date,
        equipment_model = ${m.equipment_model} where id = ${m.id}`.execute(t.db);
    }
    expect(await list(ADMIN)).toEqual(before);
  });
});

/**
 * The Activation tab on `today` worked out from the raw rows as docs/bonus.md words it: the merchants approved from
 * the longest volume days and 30 more before `today`, each with the newest specification naming its group (else 30
 * days and $250), its volume from its approval day through its deadline or `today` (the days as the bonus runs read
 * them, bonus_daily_volume), activated on the first day its running total reached the threshold, and left out once
 * 30 days past its deadline unless activated. `longest`: the longest volume days as a user reads them (staff: every
 * specification's).
 */
async function activationOracle(
  db: typeof t.db,
  today: string,
  longest?: number,
): Promise<BonusActivationRow[]> {
  const { rows: specs } = await sql<{ group_id: string; volume_days: number; volume_threshold: string }>`
    select group_id, volume_days, volume_threshold::text as volume_threshold from activation_specs order by id`.execute(
    db,
  );
  const specOf = (group: string) => {
    let found = { volume_days: 30, volume_threshold: '250' };
    for (const s of specs) if (s.group_id.replace(/\s+/g, '').split(',').includes(group)) found = s;
    return { days: found.volume_days, threshold: parseMoney(found.volume_threshold) };
  };
  const reach = (longest ?? Math.max(30, ...specs.map((s) => s.volume_days))) + 30;
  const from = addDays(today, -reach);
  const { rows: merchants } = await sql<{
    id: number;
    mid: string;
    dba: string;
    iso: string;
    group_id: string;
    rm: string | null;
    sales_rep: string | null;
    profile: string;
    opened_on: string;
    approved_on: string;
  }>`select m.id, m.mid, m.dba, p.account_name as iso, m.group_id, m.rm, m.sales_rep, m.profile,
      m.opened_on::text as opened_on, m.approved_on::text as approved_on
    from merchants m join partners p on p.id = m.partner_id
    where m.approved_on between ${from}::date and ${today}::date`.execute(db);
  const spans = merchants.map((m) => {
    const spec = specOf(m.group_id);
    const deadline = addDays(m.approved_on, Math.max(spec.days, 1) - 1);
    return { ...m, spec, deadline, last: deadline < today ? deadline : today };
  });
  const { rows: days } = await sql<{ id: number; day: string; volume: string }>`
    select x.id, v.day::text as day, v.volume::text as volume
    from unnest(${spans.map((m) => m.id)}::int[], ${spans.map((m) => m.approved_on)}::date[],
      ${spans.map((m) => m.last)}::date[]) x(id, first_day, last_day)
    cross join lateral bonus_daily_volume(array[x.id], x.first_day, x.last_day) v
    order by x.id, v.day`.execute(db);
  const daysOf = new Map<number, { day: string; volume: string }[]>();
  for (const d of days) daysOf.set(d.id, [...(daysOf.get(d.id) ?? []), d]);
  const out: (BonusActivationRow & { approved_on: string })[] = [];
  for (const m of spans) {
    let total = 0n;
    let reached: string | null = null;
    for (const d of daysOf.get(m.id) ?? []) {
      total += parseMoney(d.volume);
      if (reached === null && total >= m.spec.threshold) reached = d.day;
    }
    if (!reached && addDays(m.deadline, 30) < today) continue;
    out.push({
      approved_on: m.approved_on,
      mid: m.mid,
      dba_name: m.dba,
      iso_name: m.iso,
      group_id: m.group_id,
      rm: m.rm,
      sales_rep: m.sales_rep,
      merchant_profile: m.profile,
      open_date: m.opened_on,
      volume_threshold: toDecimalString(m.spec.threshold),
      volume: toDecimalString(money(total)),
      volume_days: m.spec.days,
      days: reached ? 0 : Math.max(0, Math.round((Date.parse(m.deadline) - Date.parse(today)) / 86_400_000)),
      activation_status: reached ? 'Activated' : m.deadline < today ? 'Expired' : 'Pending',
      activated_on: reached,
    });
  }
  out.sort((a, b) =>
    a.approved_on !== b.approved_on
      ? a.approved_on < b.approved_on
        ? 1
        : -1
      : a.mid < b.mid
        ? -1
        : a.mid > b.mid
          ? 1
          : 0,
  );
  return out.map(({ approved_on: _day, ...row }) => row);
}

/** The list as the request writes it on `today` (every day's part, made afresh) from the kept rows. */
async function activationAsKept(db: typeof t.db, today: string): Promise<BonusActivationRow[]> {
  const from = await activationFrom(db, today);
  const days: string[] = [];
  for (let day = today; day >= from; day = addDays(day, -1)) days.push(day);
  const byDay = await activationDays(db, today, days);
  const json = `[${days
    .map((d) => byDay.get(d) ?? '')
    .filter((p) => p.length > 0)
    .join(',')}]`;
  return JSON.parse(json) as BonusActivationRow[];
}

// The rows kept per merchant by the writes (migration 2026_12_18_0010) against the raw rows, on today, on later
// days (a row kept before the day asked adds the days after it) and on the day before (a database ahead of the
// server's day), after each kind of write the rows depend on.
describe('the Activation tab kept per merchant', () => {
  // Each test reads today as it starts and compares the list of that day: none starts just before a midnight.
  beforeEach(() => clearOfMidnight(90));
  it('equals the list worked out from the raw rows, for staff and an ISO, through the API', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const staff = (await (await as(ADMIN)).get(bonusPaths.getActivation)).json() as BonusActivationRow[];
    expectFitsExactly(staff, bonusEndpoints.getActivation.output);
    const want = await activationOracle(t.db, today);
    expect(want.length).toBeGreaterThan(20);
    expect(want.some((r) => r.activation_status === 'Activated')).toBe(true);
    expect(want.some((r) => r.activation_status === 'Pending')).toBe(true);
    expect(staff).toEqual(want);
    // An ISO-bound user: its own merchants, from the longest volume days of the specifications it may read.
    const { rows: partner } = await sql<{
      id: number;
    }>`select id from partners where account_name = ${SUMMIT}`.execute(t.db);
    const longest = await t.db.transaction().execute(async (trx) => {
      await scopeTransaction(trx, partner[0]?.id as number);
      const { rows } = await sql<{
        days: number | null;
      }>`select max(volume_days) as days from activation_specs`.execute(trx);
      return Math.max(30, rows[0]?.days ?? 0);
    });
    const mine = (await (await as(PARTNER)).get(bonusPaths.getActivation)).json() as BonusActivationRow[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine).toEqual((await activationOracle(t.db, today, longest)).filter((r) => r.iso_name === SUMMIT));
  });

  it('follows every kind of write, on today and on the days around it', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const check = async (db: typeof t.db, what: string) => {
      for (const day of [today, addDays(today, 1), addDays(today, 9), addDays(today, -1)])
        expect(await activationAsKept(db, day), `${what}, on ${day}`).toEqual(
          await activationOracle(db, day),
        );
    };
    await check(t.db, 'as seeded');
    await expect(
      t.db.transaction().execute(async (trx) => {
        const list = await activationOracle(trx, today);
        const pending = list.filter((r) => r.activation_status === 'Pending');
        const activated = list.filter((r) => r.activation_status === 'Activated');
        const [p1, p2, p3] = pending;
        const [a1] = activated;
        if (!p1 || !p2 || !p3 || !a1) throw new Error('the seed has too few pending or activated merchants');
        const idOf = async (mid: string) =>
          (
            await sql<{ id: number; partner_id: number; approved_on: string }>`select id, partner_id,
              approved_on::text as approved_on from merchants where mid = ${mid}`.execute(trx)
          ).rows[0] as { id: number; partner_id: number; approved_on: string };
        // A day's volume past the threshold for a pending merchant, on its approval day.
        const m1 = await idOf(p1.mid);
        await sql`insert into merchant_daily (merchant_id, partner_id, day, volume, transactions, chargeback_volume,
            chargebacks, refund_volume, refunds)
          values (${m1.id}, ${m1.partner_id}, ${m1.approved_on}::date, 5000000, 1, 0, 0, 0, 0)
          on conflict (merchant_id, day) do update set volume = merchant_daily.volume + 5000000`.execute(trx);
        await check(trx, 'a day written');
        // An activated merchant's days deleted.
        const m2 = await idOf(a1.mid);
        await sql`delete from merchant_daily where merchant_id = ${m2.id}`.execute(trx);
        await check(trx, 'days deleted');
        // A month's figures without daily rows, spread over its days.
        const m3 = await idOf(p2.mid);
        await sql`delete from merchant_daily where merchant_id = ${m3.id}`.execute(trx);
        await sql`update merchant_monthly set volume = 31000 where merchant_id = ${m3.id}
          and month = date_trunc('month', ${m3.approved_on}::date)::date`.execute(trx);
        await check(trx, 'a spread month');
        // A specification with longer volume days and a lower threshold for a pending merchant's group.
        await sql`insert into activation_specs (group_id, volume_days, volume_threshold)
          values (${p3.group_id}, 70, 1)`.execute(trx);
        await check(trx, 'a specification added');
        await sql`update activation_specs set volume_threshold = 99999999 where group_id = ${p3.group_id}`.execute(
          trx,
        );
        await check(trx, 'a specification changed');
        // A merchant's approval day moved, its group changed, its ISO renamed; a merchant deleted.
        await sql`update merchants set approved_on = approved_on - 3, group_id = ${p3.group_id}, dba = 'Moved "DBA"'
          where id = ${m1.id}`.execute(trx);
        await sql`update partners set account_name = account_name || ' (renamed)' where id = ${m2.partner_id}`.execute(
          trx,
        );
        await check(trx, 'a merchant moved and an ISO renamed');
        await sql`delete from activation_specs where group_id = ${p3.group_id}`.execute(trx);
        await check(trx, 'a specification deleted');
        // Every row again, as after a truncate.
        await sql`select paydesk_activation_keep(null)`.execute(trx);
        await check(trx, 'every row again');
        throw new RollBack();
      }),
    ).rejects.toBeInstanceOf(RollBack);
    await check(t.db, 'rolled back');
  });

  it('the hourly job writes the rows of an earlier day again as of today; the list is the same before and after', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const job = jobDefinitions(loadConfig({ LOG_LEVEL: 'silent' })).find(
      (d) => d.name === activationDayJob.name,
    );
    expect(job?.schedule?.cron).toBe('2 * * * *');
    const stale = async (db: typeof t.db) =>
      (
        await sql<{ n: number; of_today: number }>`select
          (count(*) filter (where as_of < current_date and deadline >= as_of))::int as n,
          (count(*) filter (where as_of = current_date))::int as of_today from activation_rows`.execute(db)
      ).rows[0] as { n: number; of_today: number };
    await expect(
      t.db.transaction().execute(async (trx) => {
        // The rows as the day before wrote them: the seed has no figures of today, so the volume they keep is the
        // volume through yesterday (the request adds the days after the day a row was written).
        const { rows: ahead } = await sql<{ n: number }>`
          select count(*)::int as n from merchant_daily where day >= current_date`.execute(trx);
        expect(ahead[0]?.n).toBe(0);
        await sql`update activation_rows set as_of = current_date - 1 where deadline >= current_date - 1`.execute(
          trx,
        );
        const before = await stale(trx);
        expect(before.n).toBeGreaterThan(10);
        const want = await activationOracle(trx, today);
        expect(await activationAsKept(trx, today)).toEqual(want);
        expect(await activationRowsOfToday(trx)).toBe(before.n);
        const after = await stale(trx);
        expect(after.n).toBe(0);
        expect(after.of_today).toBeGreaterThanOrEqual(before.n);
        expect(await activationAsKept(trx, today)).toEqual(want);
        // Then there is nothing to do.
        expect(await activationRowsOfToday(trx)).toBe(0);
        throw new RollBack();
      }),
    ).rejects.toBeInstanceOf(RollBack);
  });
});

describe('kept figures', () => {
  /**
   * The oracle: each bonus row's volume and last deposit summed from its merchant's daily rows up to its bonus date,
   * and its matches counted among every row and among its own ISO's rows, from the raw rows; the rows whose kept
   * figures (migration 2026_12_05_0010) differ from them.
   */
  const mismatches = async (db: typeof t.db) =>
    (
      await sql<{ id: number }>`
      select b.id from bonus_rows b
      cross join lateral (
        select sum(d.volume) as volume, max(d.day) filter (where d.volume > 0) as last_deposit
        from merchant_daily d where d.merchant_id = b.merchant_id and d.day <= b.bonus_date) v
      cross join lateral (
        select count(*)::int as all_n, (count(*) filter (where e.partner_id = b.partner_id))::int as iso_n
        from bonus_rows e where e.address_key = b.address_key and e.bonus_date < b.bonus_date
          and e.mid <> b.mid and e.period in ('W', 'M')) c
      where (b.days_volume, b.days_last_deposit, b.matches_all, b.matches_iso)
        is distinct from (v.volume, v.last_deposit, c.all_n, c.iso_n)`.execute(db)
    ).rows;

  it("every row's volume, last deposit and matches are the raw rows', after every kind of change", async () => {
    const w = await busyMonthlyWindow();
    expect(await mismatches(t.db)).toEqual([]);
    const { rows: counts } = await sql<{ volume: number; matched: number }>`
      select count(*) filter (where days_volume > 0)::int as volume, count(*) filter (where matches_all > 0)::int as matched
      from bonus_rows`.execute(t.db);
    // The seed has both kinds of figure to keep, or the comparison would prove little.
    expect(counts[0]?.volume).toBeGreaterThan(0);
    expect(counts[0]?.matched).toBeGreaterThan(0);
    await t.db
      .transaction()
      .execute(async (trx) => {
        const { rows: picked } = await sql<{ merchant_id: number; day: string; bonus_date: string }>`
          select b.merchant_id, max(d.day)::text as day, b.bonus_date::text as bonus_date
          from bonus_rows b join merchant_daily d on d.merchant_id = b.merchant_id and d.day <= b.bonus_date
            and d.volume > 0
          where b.period = 'M' and b.window_start = ${w.start}::date
          group by b.merchant_id, b.bonus_date order by b.merchant_id limit 2`.execute(trx);
        const [a, b] = picked;
        if (!a || !b) throw new Error('no two bonus merchants with daily volume');
        const changes = [
          // A day's volume up; the last deposit day's volume to 0 (the last deposit moves back).
          sql`update merchant_daily set volume = volume + 10 where merchant_id = ${a.merchant_id} and day < ${a.day}::date`,
          sql`update merchant_daily set volume = 0 where merchant_id = ${a.merchant_id} and day = ${a.day}::date`,
          // A day deleted, then written again with another volume.
          sql`delete from merchant_daily where merchant_id = ${b.merchant_id} and day = ${b.day}::date`,
          sql`insert into merchant_daily (merchant_id, partner_id, day, volume, transactions, chargeback_volume,
                chargebacks, refund_volume, refunds)
              select id, partner_id, ${b.day}::date, 77.7, 1, 0, 0, 0, 0 from merchants where id = ${b.merchant_id}`,
          // Every merchant's day of a bonus date.
          sql`update merchant_daily set volume = round(volume * 1.01, 2) where day = ${a.bonus_date}::date`,
          // A row's address moved to another row's (the matches of both addresses change), a matched row deleted.
          sql`update bonus_rows set address_key = (select address_key from bonus_rows where matches_all > 0 limit 1)
              where id = (select min(id) from bonus_rows where period = 'M' and window_start = ${w.start}::date)`,
          sql`delete from bonus_rows where id = (select min(e.id) from bonus_rows b
                join bonus_rows e on e.address_key = b.address_key and e.bonus_date < b.bonus_date and e.mid <> b.mid
                where b.matches_all > 0 and e.period in ('W', 'M')
                  and not exists (select 1 from clawback_rows c where c.bonus_id = e.id))`,
        ];
        for (const [i, change] of changes.entries()) {
          const done = await change.execute(trx);
          expect([i, Number(done.numAffectedRows ?? 0) > 0]).toEqual([i, true]);
          expect([i, await mismatches(trx)]).toEqual([i, []]);
        }
        // The window run again: its rows deleted and written anew.
        await runWindow(trx, w, null);
        expect(await mismatches(trx)).toEqual([]);
        throw new RollBack();
      })
      .catch((e) => {
        if (!(e instanceof RollBack)) throw e;
      });
    expect(await mismatches(t.db)).toEqual([]);
  });

  /**
   * The oracle of GetBonus's kept heads (migration 2026_12_06_0010): each row's first 23 columns from the raw rows
   * (the bonus row, its merchant and the merchant's ISO), against its kept head read as JSON; the ids that differ.
   */
  const headMismatches = async (db: typeof t.db) => {
    const { rows } = await sql<{
      id: number;
      head: string;
      opened_kept: boolean;
      raw: Record<string, unknown>;
    }>`
      select b.id, b.answer_head as head, b.merchant_opened_on = m.opened_on as opened_kept, json_build_object(
        'id', b.id, 'mid', b.mid, 'dba_name', m.dba, 'iso_name', p.account_name, 'group_id', m.group_id, 'rm', m.rm,
        'sales_rep', m.sales_rep, 'merchant_profile', m.profile, 'open_date', m.opened_on, 'close_date', m.closed_on,
        'bonus_date', b.bonus_date, 'bonus_type', b.bonus_type, 'bonus_amount', b.bonus_amount::text,
        'do_not_pay', b.do_not_pay, 'note', b.note, 'worked_datetime', b.worked_datetime, 'worked_by', b.worked_by,
        'ownership_type', m.ownership_type, 'equipment_model', m.equipment_model, 'period', b.period,
        'window_start', b.window_start, 'window_end', b.window_end, 'explanation', b.explanation) as raw
      from bonus_rows b join merchants m on m.id = b.merchant_id join partners p on p.id = m.partner_id`.execute(
      db,
    );
    return rows
      .filter((r) => {
        const kept = JSON.parse(`${r.head}0}`) as Record<string, unknown>;
        const { match_count, ...head } = kept;
        const raw = { ...r.raw };
        // A moment as the answer carries it: ISO 8601 in UTC, to the millisecond.
        if (typeof raw.worked_datetime === 'string')
          raw.worked_datetime = new Date(raw.worked_datetime).toISOString();
        return !r.opened_kept || JSON.stringify(head) !== JSON.stringify(raw);
      })
      .map((r) => r.id);
  };

  it("GetBonus's kept rows answer as the rows joined live, after every kind of change", async () => {
    // The monthly window and ISO with the most rows of that ISO, where other ISOs have rows too.
    const { rows: ids } = await sql<{ id: number; start: string }>`
      select b.partner_id as id, b.window_start::text as start from bonus_rows b
      where b.period = 'M' and exists (select 1 from bonus_rows o where o.period = 'M'
        and o.window_start = b.window_start and o.partner_id <> b.partner_id)
      group by b.partner_id, b.window_start having count(*) >= 2
      order by count(*) desc, b.window_start desc, b.partner_id limit 1`.execute(t.db);
    const isoId = ids[0]?.id;
    const w = monthlyWindow(ids[0]?.start ?? '');
    if (isoId === undefined || !w)
      throw new Error('no monthly window with two rows of an ISO and rows of another');
    expect(await headMismatches(t.db)).toEqual([]);
    /** The window's answer from the kept heads, against the rows joined live (bonusRows), as staff and as the ISO. */
    const same = async (trx: typeof t.db, step: string) => {
      expect([step, await headMismatches(trx)]).toEqual([step, []]);
      const live = await bonusRows(trx, w);
      expect(live.length).toBeGreaterThan(0);
      expect([step, JSON.parse(await bonusRowsJson(trx, w))]).toEqual([step, live]);
      await scopeTransaction(trx, isoId);
      const liveIso = await bonusRows(trx, w);
      expect(liveIso.length).toBeGreaterThan(0);
      expect(liveIso.length).toBeLessThan(live.length);
      expect([step, JSON.parse(await bonusRowsJson(trx, w))]).toEqual([step, liveIso]);
      await sql`reset role`.execute(trx);
    };
    await t.db
      .transaction()
      .execute(async (trx) => {
        const { rows: picked } = await sql<{ merchant_id: number; bonus_id: number; partner_id: number }>`
          select b.merchant_id, b.id as bonus_id, b.partner_id from bonus_rows b
          where b.period = 'M' and b.window_start = ${w.start}::date and b.partner_id = ${isoId}
          order by b.id limit 2`.execute(trx);
        const [a, b] = picked;
        if (!a || !b) throw new Error('no two rows of the ISO in the window');
        const { rows: others } = await sql<{ id: number; group_id: string }>`
          select g.partner_id as id, g.group_id from groups g where g.partner_id <> ${isoId}
          order by g.group_id limit 1`.execute(trx);
        const other = others[0];
        if (!other) throw new Error('no group of another ISO');
        const changes: [string, ReturnType<typeof sql>][] = [
          // Text that JSON must escape: quotes, a backslash, a line break, a tab, a character beyond ASCII.
          [
            'DBA and RM',
            sql`update merchants set dba = ${'Joe\'s "Best" \\ Café\n\tCorner'}, rm = null where id = ${a.merchant_id}`,
          ],
          [
            'closed, profile, equipment',
            sql`update merchants set closed_on = current_date, profile = case when profile = 'High Risk' then 'PayLo' else 'High Risk' end, equipment_model = ${'Pax "A920"'}
              where id = ${b.merchant_id}`,
          ],
          // Opened before the first daily row kept: its figures from its months (bonus_old_figures).
          [
            'opened long ago',
            sql`update merchants set opened_on = (select min(day) - 400 from merchant_daily) where id = ${b.merchant_id}`,
          ],
          [
            'ISO renamed',
            sql`update partners set account_name = ${'Summit \\ "Payments"'} where id = ${isoId}`,
          ],
          [
            'note, worked, not paid',
            sql`update bonus_rows set note = ${'Paid by "check"\nsee file'}, worked_by = 'admin@paydesk.local',
              worked_datetime = '2026-11-20 14:03:07.123+00', do_not_pay = true where id = ${a.bonus_id}`,
          ],
          // To another ISO's group: the ISO no longer sees the row, as the live join's merchant is hidden.
          [
            'moved ISO',
            sql`update merchants set partner_id = ${other.id}, group_id = ${other.group_id} where id = ${a.merchant_id}`,
          ],
          [
            'bonus amount',
            sql`update bonus_rows set bonus_amount = bonus_amount + 0.5 where id = ${b.bonus_id}`,
          ],
        ];
        for (const [step, change] of changes) {
          const done = await change.execute(trx);
          expect([step, Number(done.numAffectedRows ?? 0) > 0]).toEqual([step, true]);
          await same(trx, step);
        }
        // The window run again: its rows deleted and written anew.
        await runWindow(trx, w, null);
        await same(trx, 'run again');
        throw new RollBack();
      })
      .catch((e) => {
        if (!(e instanceof RollBack)) throw e;
      });
    expect(await headMismatches(t.db)).toEqual([]);
  });

  it('a statement writing many merchants or partners writes the heads of the changed ones’ bonus rows, and no other', async () => {
    // The bonus rows this transaction has written (their row version's transaction is this one).
    const written = async (trx: typeof t.db) =>
      Number(
        (
          await sql<{ n: number }>`select count(*)::int as n from bonus_rows
            where xmin = pg_current_xact_id()::xid`.execute(trx)
        ).rows[0]?.n,
      );
    const { rows: counts } = await sql<{ rows: number; merchants: number; partners: number }>`
      select count(*)::int as rows, count(distinct merchant_id)::int as merchants,
        count(distinct partner_id)::int as partners from bonus_rows`.execute(t.db);
    const all = counts[0];
    if (!all || all.merchants < 2 || all.partners < 2) throw new Error('too few merchants with bonus rows');
    const rolledBack = (steps: (trx: typeof t.db) => Promise<void>) =>
      t.db
        .transaction()
        .execute(async (trx) => {
          await sql`select pg_current_xact_id()`.execute(trx);
          await steps(trx);
          throw new RollBack();
        })
        .catch((e) => {
          if (!(e instanceof RollBack)) throw e;
        });
    await rolledBack(async (trx) => {
      // A column no head shows, changed on every merchant: no bonus row is written.
      const phone = await sql`update merchants set phone = coalesce(phone, '') || ' x1'`.execute(trx);
      expect(Number(phone.numAffectedRows)).toBeGreaterThan(all.merchants);
      expect(await written(trx)).toBe(0);
      // A shown column set to the value it has: nothing changed, nothing written.
      await sql`update merchants set dba = dba`.execute(trx);
      expect(await written(trx)).toBe(0);
      // A shown column changed on the merchants without bonus rows: theirs are none.
      await sql`update merchants m set dba = m.dba || ' ·'
        where not exists (select 1 from bonus_rows b where b.merchant_id = m.id)`.execute(trx);
      expect(await written(trx)).toBe(0);
      // Every merchant's equipment in one statement: every bonus row's head is written again, as the live join.
      await sql`update merchants set equipment_model = coalesce(equipment_model, 'none') || ${' "bulk"'}`.execute(
        trx,
      );
      expect(await written(trx)).toBe(all.rows);
      expect(await headMismatches(trx)).toEqual([]);
    });
    await rolledBack(async (trx) => {
      // Partners: a column no head shows, then every partner's name set to itself: nothing written.
      await sql`update partners set phone = coalesce(phone, '') || ' x1'`.execute(trx);
      await sql`update partners set account_name = account_name`.execute(trx);
      expect(await written(trx)).toBe(0);
      // Every partner renamed in one statement (an import may): every bonus row's head written again.
      await sql`update partners set account_name = account_name || ${' "renamed"'}`.execute(trx);
      expect(await written(trx)).toBe(all.rows);
      expect(await headMismatches(trx)).toEqual([]);
    });
    expect(await headMismatches(t.db)).toEqual([]);
  });

  it("counts an ISO-bound user's matches among their own ISO's rows, staff's among every row", async () => {
    const w = await busyMonthlyWindow();
    // A Summit row of the window moved to the address of an earlier row of another ISO.
    const { rows: pair } = await sql<{ id: number; key: string | null; other: string }>`
      select b.id, b.address_key as key, o.address_key as other
      from bonus_rows b join partners p on p.id = b.partner_id
      join lateral (select e.address_key from bonus_rows e where e.partner_id <> b.partner_id
        and e.period in ('W', 'M') and e.bonus_date < b.bonus_date and e.address_key is not null
        order by e.id limit 1) o on true
      where b.period = 'M' and b.window_start = ${w.start}::date and p.account_name = ${SUMMIT}
      order by b.id limit 1`.execute(t.db);
    const row = pair[0];
    if (!row) throw new Error('no Summit row with an earlier row of another ISO');
    await sql`update bonus_rows set address_key = ${row.other} where id = ${row.id}`.execute(t.db);
    try {
      const { rows: want } = await sql<{ all_n: number; iso_n: number }>`
        select count(*)::int as all_n, (count(*) filter (where e.partner_id = b.partner_id))::int as iso_n
        from bonus_rows b join bonus_rows e on e.address_key = b.address_key and e.bonus_date < b.bonus_date
          and e.mid <> b.mid and e.period in ('W', 'M')
        where b.id = ${row.id}`.execute(t.db);
      const expected = want[0];
      if (!expected) throw new Error('no counts');
      expect(expected.all_n).toBeGreaterThan(expected.iso_n);
      const ask = async (email: string) =>
        (
          (
            await (await as(email)).post(bonusPaths.getBonus, { bonusType: 'M', date: w.end })
          ).json() as BonusRow[]
        ).find((r) => r.id === row.id)?.match_count;
      expect(await ask(ADMIN)).toBe(expected.all_n);
      expect(await ask(PARTNER)).toBe(expected.iso_n);
    } finally {
      await sql`update bonus_rows set address_key = ${row.key} where id = ${row.id}`.execute(t.db);
    }
    expect(await mismatches(t.db)).toEqual([]);
  });
});

describe('matches', () => {
  it('GetMatchesByMid answers earlier bonused merchants at the same address', async () => {
    const { rows } = await sql<{ mid: string; earlier: string }>`
      select b.mid, e.mid as earlier from bonus_rows b join merchants m on m.id = b.merchant_id
      join bonus_rows e on e.period in ('W', 'M') and e.bonus_date < b.bonus_date and e.mid <> b.mid
      join merchants em on em.id = e.merchant_id
      where b.period in ('W', 'M') and lower(m.address) = lower(em.address) and lower(m.city) = lower(em.city)
        and m.state = em.state and left(m.zip, 5) = left(em.zip, 5)
      order by b.mid limit 1`.execute(t.db);
    const pair = rows[0];
    if (!pair) throw new Error('the seed made no matches');
    const got = (await (await as(ADMIN)).post(bonusPaths.getMatchesByMid, { mids: [pair.mid] })).json() as {
      mid: string;
      clawed_back: number;
    }[];
    expect(got.map((m) => m.mid)).toContain(pair.earlier);
    const all = (await (await as(ADMIN)).get(bonusPaths.getMatches)).json() as {
      mid: string;
      matches: string;
    }[];
    expect(all.find((m) => m.mid === pair.mid)?.matches.split(',')).toContain(pair.earlier);
    // The whole list against every row joined to every row at its address (no kept count), for staff and an ISO.
    const plainMatches = async (partnerId: number | null) =>
      (
        await sql<{ mid: string; bonus_date: string; matches: string }>`
          select b.mid, b.bonus_date::text as bonus_date, string_agg(e.mid, ',' order by e.bonus_date, e.mid) as matches
          from bonus_rows b join bonus_rows e on e.address_key = b.address_key and e.bonus_date < b.bonus_date
            and e.mid <> b.mid and e.period in ('W', 'M')
            and (${partnerId}::int is null or e.partner_id = ${partnerId}::int)
          where b.period in ('W', 'M') and (${partnerId}::int is null or b.partner_id = ${partnerId}::int)
          group by b.mid, b.bonus_date order by b.bonus_date desc, b.mid`.execute(t.db)
      ).rows;
    expect(all).toEqual(await plainMatches(null));
    expect(all.length).toBeGreaterThan(0);
    const { rows: summit } = await sql<{
      id: number;
    }>`select id from partners where account_name = ${SUMMIT}`.execute(t.db);
    expect((await (await as(PARTNER)).get(bonusPaths.getMatches)).json()).toEqual(
      await plainMatches(summit[0]?.id as number),
    );
    // The list is kept (platform/answerCache.ts): a bonus row moved to an address of its own leaves it at once.
    const { rows: moved } = await sql<{ id: number; key: string }>`
      select id, address_key as key from bonus_rows where mid = ${pair.mid} and period in ('W', 'M')`.execute(
      t.db,
    );
    try {
      await sql`update bonus_rows set address_key = 'nowhere ' || id where mid = ${pair.mid}`.execute(t.db);
      const after = (await (await as(ADMIN)).get(bonusPaths.getMatches)).json() as { mid: string }[];
      expect(after.find((m) => m.mid === pair.mid)).toBeUndefined();
    } finally {
      for (const r of moved)
        await sql`update bonus_rows set address_key = ${r.key} where id = ${r.id}`.execute(t.db);
    }
    const back = (await (await as(ADMIN)).get(bonusPaths.getMatches)).json() as typeof all;
    expect(back).toEqual(all);
  });
});

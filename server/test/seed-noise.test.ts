import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connected } from '../src/db/connect';
import { insertDailyActivity } from '../src/db/seed/activity';
import { days, noiseOf, uniform } from '../src/db/seed/sqlNoise';
import { migratedDatabase } from './helpers';

/**
 * The seed's noise (sqlNoise.ts) and the daily activity made from it. The live demo adds each completed day with
 * the same statement as the seed, from a different first day: a day's rows must not depend on where the window
 * starts.
 */
let t: Connected;
beforeAll(async () => {
  t = await migratedDatabase();
});
afterAll(async () => {
  await t?.close();
});

describe('the seed noise', () => {
  it('gives uniforms in [0, 1) that are spread evenly, the same for the same key, different per stream', async () => {
    const u = (stream: string, n: 1 | 2 | 3 | 4) =>
      uniform(noiseOf(20160501, stream, 'i', days("date '2024-01-01' + i % 400")), n);
    const { rows } = await sql<{
      n: number;
      lo: number;
      hi: number;
      mean: number;
      low_decile: number;
      again: number;
      other_stream: number;
      corr12: number;
    }>`
      select count(*)::int as n, min(u1) as lo, max(u1) as hi, avg(u1) as mean,
             avg((u3 < 0.1)::int) as low_decile,
             avg((u1 = again)::int) as again, avg((u1 = other)::int) as other_stream,
             corr(u1, u2) as corr12
      from (select ${sql.raw(u('d', 1))} as u1, ${sql.raw(u('d', 2))} as u2, ${sql.raw(u('d', 3))} as u3,
                   ${sql.raw(u('d', 1))} as again, ${sql.raw(u('m', 1))} as other
            from generate_series(1, 20000) i) x`.execute(t.db);
    const r = rows[0];
    expect(r?.n).toBe(20000);
    expect(Number(r?.lo)).toBeGreaterThanOrEqual(0);
    expect(Number(r?.hi)).toBeLessThan(1);
    // 20,000 uniforms: the mean's standard error is 0.002, a decile's 0.0021.
    expect(Math.abs(Number(r?.mean) - 0.5)).toBeLessThan(0.01);
    expect(Math.abs(Number(r?.low_decile) - 0.1)).toBeLessThan(0.01);
    expect(Math.abs(Number(r?.corr12))).toBeLessThan(0.03);
    expect(Number(r?.again)).toBe(1);
    expect(Number(r?.other_stream)).toBeLessThan(0.001);
  });

  it("makes a day's activity the same whichever day the window starts on", async () => {
    await t.db.transaction().execute(async (trx) => {
      await sql`create temporary table noise_params on commit drop as
        select 7 as merchant_id, 3 as partner_id, 42.5::float8 as ticket, 0.004::float8 as cb_rate,
               0.02::float8 as refund_rate, 60000::float8 as base, 0.08::float8 as trend,
               date '2025-12-20' as active_from, date '2026-03-10' as active_to`.execute(trx);
      // merchant_daily's foreign keys want the merchant: the rows go into a table of the same shape instead.
      await sql`create temporary table merchant_daily (like public.merchant_daily) on commit drop`.execute(
        trx,
      );
      await insertDailyActivity(trx, 20160501, 'noise_params', '2025-11-01', '2026-02-15');
      const wide = await sql<Record<string, unknown>>`
        select * from pg_temp.merchant_daily where day >= '2026-01-20' order by day`.execute(trx);
      await sql`delete from pg_temp.merchant_daily`.execute(trx);
      await insertDailyActivity(trx, 20160501, 'noise_params', '2026-01-20', '2026-03-31');
      const narrow = await sql<Record<string, unknown>>`
        select * from pg_temp.merchant_daily where day <= '2026-02-15' order by day`.execute(trx);
      const all = await sql<{ first: string; last: string; n: number; sundays: number; fridays: number }>`
        select min(day)::text as first, max(day)::text as last, count(*)::int as n,
               avg(volume) filter (where extract(dow from day) = 0) as sundays,
               avg(volume) filter (where extract(dow from day) = 5) as fridays
        from pg_temp.merchant_daily`.execute(trx);
      expect(wide.rows.length).toBe(27);
      expect(narrow.rows).toEqual(wide.rows);
      // The merchant's active days inside the window, no more.
      expect(all.rows[0]).toMatchObject({ first: '2026-01-20', last: '2026-03-10', n: 50 });
      // The weekday factors (Sunday 0.55, Friday 1.28) show through the noise.
      expect(Number(all.rows[0]?.fridays)).toBeGreaterThan(Number(all.rows[0]?.sundays) * 1.4);
    });
  });
});

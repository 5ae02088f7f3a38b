import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The return-rate panel's order, kept on each merchant's row of the 60-day rollup, so the panel reads its first
 * rows from an index instead of ranking every merchant on each call: `over` (any rate above its NACHA threshold),
 * `severity` (the worst rate ÷ its threshold) and `overall` (returns ÷ entries). The thresholds are those of
 * domain/src/ach/rates.ts (0.5 %, 3 %, 15 %) as whole numbers per thousand, so the boundary is exact; the API
 * test of the panel checks the two agree.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `alter table ach_rate_window
       add column over boolean generated always as (entries > 0 and (
         unauthorized::bigint * 1000 > 5 * entries::bigint
         or administrative::bigint * 1000 > 30 * entries::bigint
         or returns::bigint * 1000 > 150 * entries::bigint)) stored,
       add column severity float8 generated always as (case when entries > 0 then greatest(
         unauthorized::float8 / entries / 0.005, administrative::float8 / entries / 0.03,
         returns::float8 / entries / 0.15) else 0 end) stored,
       add column overall float8 generated always as (
         case when entries > 0 then returns::float8 / entries else 0 end) stored`,
    `create index ach_rate_window_ranking on ach_rate_window (over desc, severity desc, overall desc, merchant_id)
       where entries > 0 or returns > 0`,
  ]);
}

import type { Kysely } from 'kysely';
import { ISO_ROLE, run, scopeToIso } from './helpers';

/**
 * The return-rate panel per ISO summed every merchant's row of the 60-day rollup (ach_rate_window, one row per
 * merchant: 50,000 at the large scale) on each call, twice: once for the ranked rows and once for the count of
 * those over a threshold; the merchant panel counted every merchant's row for its summary. `ach_rate_window_iso`
 * keeps the same sums per ISO, and the counts of its merchants with activity and of those over a threshold, rebuilt with the merchants' rollup
 * (areas/ach/queries.ts, refreshRateWindow), with the panel's order kept on each row as for the merchants
 * (migration 2026_11_23_0006: the same thresholds, as whole numbers per thousand). Row-level security as for the
 * merchants' rows: an ISO user reads its own ISO's row only, and writes none (issue 18).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table ach_rate_window_iso (
       partner_id integer primary key references partners (id),
       as_of date not null,
       entries integer not null,
       returns integer not null,
       unauthorized integer not null,
       administrative integer not null,
       -- The ISO's merchants with entries or returns in the window, and how many of them are over a threshold:
       -- the merchant panel's counts, summed from a thousand rows.
       merchants integer not null,
       merchants_over integer not null,
       over boolean generated always as (entries > 0 and (
         unauthorized::bigint * 1000 > 5 * entries::bigint
         or administrative::bigint * 1000 > 30 * entries::bigint
         or returns::bigint * 1000 > 150 * entries::bigint)) stored,
       severity float8 generated always as (case when entries > 0 then greatest(
         unauthorized::float8 / entries / 0.005, administrative::float8 / entries / 0.03,
         returns::float8 / entries / 0.15) else 0 end) stored,
       overall float8 generated always as (
         case when entries > 0 then returns::float8 / entries else 0 end) stored
     )`,
    `insert into ach_rate_window_iso
       (partner_id, as_of, entries, returns, unauthorized, administrative, merchants, merchants_over)
       select partner_id, max(as_of), sum(entries), sum(returns), sum(unauthorized), sum(administrative),
              count(*) filter (where entries > 0 or returns > 0), count(*) filter (where over)
       from ach_rate_window group by partner_id`,
  ]);
  await scopeToIso(db, 'ach_rate_window_iso');
  // Only the rebuild writes it.
  await run(db, [
    `grant select on ach_rate_window_iso to ${ISO_ROLE}`,
    `revoke insert, update, delete on ach_rate_window_iso from ${ISO_ROLE}`,
  ]);
}

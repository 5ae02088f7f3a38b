import { sql } from 'kysely';
import type { Db } from './connect';

/**
 * Rebuilds activity_rollup for the months given (all months when none): merchant-months summed by each
 * filter dimension. Called by the seed and by imports that change monthly activity, in their transaction.
 */
export async function refreshRollup(db: Db, months?: readonly string[]): Promise<void> {
  const only =
    months && months.length > 0
      ? sql`where a.month in (${sql.join(months.map((m) => sql`${m}::date`))})`
      : sql``;
  if (months && months.length > 0) {
    await sql`delete from activity_rollup where month in (${sql.join(months.map((m) => sql`${m}::date`))})`.execute(
      db,
    );
  } else {
    await sql`delete from activity_rollup`.execute(db);
  }
  await sql`
    insert into activity_rollup (month, dimension, value, volume, transactions, income, merchants, age_months)
    select a.month, d.dimension, d.value, sum(a.volume), sum(a.transactions), sum(coalesce(i.net, 0)), count(*),
           sum((extract(year from age(a.month, date_trunc('month', m.opened_on))) * 12
              + extract(month from age(a.month, date_trunc('month', m.opened_on))))::int)
    from merchant_monthly a
    join merchants m on m.id = a.merchant_id
    left join merchant_income i on i.merchant_id = a.merchant_id and i.month = a.month
    cross join lateral (values
      ('all', ''),
      ('profile', m.profile),
      ('bank', m.sponsor_bank),
      ('omonth', extract(month from m.opened_on)::int::text),
      ('oyear', extract(year from m.opened_on)::int::text),
      ('mcc', m.mcc),
      ('partner', m.partner_id::text)
    ) d(dimension, value)
    ${only}
    group by a.month, d.dimension, d.value`.execute(db);
}

import type { Kysely } from 'kysely';
import { ISO_ROLE, run } from './helpers';

/**
 * Monthly activity pre-aggregated by one filter dimension of the financial dashboard at a time (profile,
 * bank, open month, open year, MCC, partner) and in total. A month × dimension has at most ~1,100 rows, so
 * the dashboard's no-filter and one-group questions read a few hundred rows instead of summing every
 * merchant-month. It holds all ISOs' totals, so the ISO role may not read it (their questions go to the
 * merchant rows, which row-level security scopes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table activity_rollup (
       month date not null,
       dimension text not null check (dimension in ('all', 'profile', 'bank', 'omonth', 'oyear', 'mcc', 'partner')),
       value text not null,
       volume numeric(16, 2) not null,
       transactions bigint not null,
       income numeric(16, 2) not null,
       merchants integer not null,
       age_months bigint not null,
       primary key (dimension, value, month)
     )`,
    'create index activity_rollup_month on activity_rollup (month, dimension)',
    `revoke all on activity_rollup from ${ISO_ROLE}`,
  ]);
  // A database that already has activity gets its rollup now. The SQL is this migration's own copy: the
  // rollup's code may change later, the history of the schema may not.
  await run(db, [
    `insert into activity_rollup (month, dimension, value, volume, transactions, income, merchants, age_months)
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
     group by a.month, d.dimension, d.value`,
  ]);
}

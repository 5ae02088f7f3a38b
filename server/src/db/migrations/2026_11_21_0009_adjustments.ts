import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/** Adjustments per merchant-month (Upload Data). Scoped to the ISO by row-level security. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table adjustments (
       id bigserial primary key,
       partner_id integer not null,
       merchant_id integer not null references merchants (id),
       month date not null check (extract(day from month) = 1),
       mid text not null,
       category text not null,
       description text,
       amount numeric(12, 2) not null
     )`,
    'create index adjustments_month on adjustments (month)',
  ]);
  await scopeToIso(db, 'adjustments');
}

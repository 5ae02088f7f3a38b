import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * Income per merchant-month: gross, net (gross − expenses), expenses, ISO payouts, interchange and card-
 * brand income and expense. Scoped to the ISO by row-level security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table merchant_income (
       merchant_id integer not null references merchants (id),
       partner_id integer not null,
       month date not null check (extract(day from month) = 1),
       gross numeric(12, 2) not null,
       net numeric(12, 2) not null,
       expenses numeric(12, 2) not null,
       payouts numeric(12, 2) not null,
       interchange_income numeric(14, 2) not null,
       interchange_expense numeric(14, 2) not null,
       card_brand_income numeric(12, 2) not null,
       card_brand_expense numeric(12, 2) not null,
       primary key (merchant_id, month)
     )`,
    'create index merchant_income_month on merchant_income (month)',
  ]);
  await scopeToIso(db, 'merchant_income');
}

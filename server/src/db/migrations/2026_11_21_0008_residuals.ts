import type { Kysely } from 'kysely';
import { run, scopeToIso } from './helpers';

/**
 * Residual statement rows per merchant-month and processor (TSYS, PPS). Scoped to the ISO by row-level
 * security.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table residuals (
       id bigserial primary key,
       partner_id integer not null,
       merchant_id integer references merchants (id),
       month date not null check (extract(day from month) = 1),
       processor text not null check (processor in ('TSYS', 'PPS')),
       mid text not null,
       dba text,
       agent text,
       office text,
       payout_schedule text,
       payout_to text,
       transactions integer not null,
       volume numeric(14, 2) not null,
       income numeric(12, 2) not null,
       gross numeric(12, 2) not null,
       net numeric(12, 2) not null,
       ach_collected_gross numeric(12, 2),
       ach_collected_payout numeric(12, 2),
       ach_collected_net numeric(12, 2),
       ach_rejected_gross numeric(12, 2),
       ach_rejected_net numeric(12, 2),
       refunds_gross numeric(12, 2),
       refunds_payout numeric(12, 2),
       refunds_net numeric(12, 2),
       total_gross numeric(12, 2) not null,
       total_payout numeric(12, 2) not null,
       total_net numeric(12, 2) not null,
       income1 numeric(12, 2),
       expense numeric(12, 2) not null,
       profit_loss numeric(12, 2) not null
     )`,
    'create index residuals_month on residuals (month, processor)',
    'create index residuals_month_net on residuals (month, total_net desc)',
    'create index residuals_mid_prefix on residuals (mid text_pattern_ops)',
  ]);
  await scopeToIso(db, 'residuals');
}

import type { Kysely } from 'kysely';
import { days, ofMerchants, ofPartners } from './2026_12_11_0010_approvals_parts';
import { finOptionsFunction } from './2026_12_11_0030_fin_options_columns';
import { changedIds, partsTriggerFunction, run } from './helpers';

/**
 * The update triggers of 2026_12_11_0010 (approvals' parts) and 2026_12_11_0030 (fin_options' columns) compared a
 * statement's old and new rows in ways PostgreSQL can work out by reading one transition table once per row of the
 * other: fin_options' EXISTS over a left join was planned as a nested loop (it expects an early match), and
 * approvals' `id not in (select id from old_rows)` becomes a plain subplan once the ids outgrow work_mem. The seed's
 * update of every merchant (86,000 at the large scale) ran for minutes instead of seconds. Each now finds the changed
 * rows with one EXCEPT of (id, columns) tuples (helpers.ts, changedIds), hashed or sorted at any size; what each
 * raises is unchanged.
 */
const finOptions = (name: string, columns: string[]) => finOptionsFunction(name, changedIds(columns));

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    finOptions('paydesk_merchants_fin_options', [
      'mid',
      'dba',
      'mcc',
      'profile',
      'sponsor_bank',
      'opened_on',
      'partner_id',
    ]),
    finOptions('paydesk_partners_fin_options', ['account_name']),
    partsTriggerFunction('paydesk_merchants_approvals_parts', 'approvals', {
      update: days(ofMerchants(changedIds(['mid', 'dba']))),
      delete: days(ofMerchants('select id from old_rows')),
    }),
    partsTriggerFunction('paydesk_partners_approvals_parts', 'approvals', {
      update: days(ofPartners(changedIds(['account_name']))),
      delete: days(ofPartners('select id from old_rows')),
    }),
  ]);
}

import type { Kysely } from 'kysely';
import { keptForIso, keptFromRows, run } from './helpers';

/**
 * Each month's PCI billing rows counted and totalled per ISO, billing type and rev share, so the Billing and
 * Commissions tabs count and total a month from a few thousand rows instead of every billing row: the month's
 * 32,000 commission rows at the large scale were most of the Commissions tab's 28 / 31 ms (issue 18, docs/bench.md).
 * The rev share is a column of the group (null: no share in effect), so the Commissions tab's own condition
 * (`b.iso_rev_share is not null`) reads this table as it reads the rows. Kept as `pci_open_compliance` is, by a
 * statement-level trigger with transition tables; a group left with no row is dropped. Row-level security as on
 * `pci_billing`; only the trigger writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table pci_billing_totals (
       month date not null,
       partner_id integer not null references partners (id),
       billing_flag text not null,
       iso_rev_share numeric(5, 2),
       billed_rows integer not null,
       amount numeric not null,
       iso_cost numeric not null,
       amount_due numeric,
       unique nulls not distinct (month, partner_id, billing_flag, iso_rev_share)
     )`,
    `insert into pci_billing_totals (month, partner_id, billing_flag, iso_rev_share, billed_rows, amount, iso_cost, amount_due)
       select month, partner_id, billing_flag, iso_rev_share, count(*), sum(amount), sum(iso_cost), sum(amount_due)
       from pci_billing group by 1, 2, 3, 4`,
    ...keptFromRows({
      table: 'pci_billing',
      name: 'totals',
      add: (signedRows) => `insert into pci_billing_totals
           (month, partner_id, billing_flag, iso_rev_share, billed_rows, amount, iso_cost, amount_due)
         select month, partner_id, billing_flag, iso_rev_share, sum(sign), sum(sign * amount), sum(sign * iso_cost),
           sum(sign * amount_due)
         from (${signedRows}) x group by 1, 2, 3, 4
         on conflict (month, partner_id, billing_flag, iso_rev_share) do update set
           billed_rows = pci_billing_totals.billed_rows + excluded.billed_rows,
           amount = pci_billing_totals.amount + excluded.amount,
           iso_cost = pci_billing_totals.iso_cost + excluded.iso_cost,
           amount_due = pci_billing_totals.amount_due + excluded.amount_due;`,
      tidy: 'delete from pci_billing_totals where billed_rows = 0;',
      truncate: 'delete from pci_billing_totals;',
    }),
  ]);
  await keptForIso(db, 'pci_billing_totals');
}

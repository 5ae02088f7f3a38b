import type { Kysely } from 'kysely';
import { ISO_ROLE, keptFromRows, run, scopeToIso } from './helpers';

/**
 * Each ISO's count of merchants open for PCI billing (`merchant_status = ''`), so the PCI merchants table's page
 * without a filter or search (its first page, and every sort of it) counts a thousand ISOs instead of 55,000 open
 * merchants: 7 ms of the call's 16 at the large scale (issue 18, docs/bench.md). A statement-level trigger with
 * transition tables keeps it in the writing statement itself (the seed, the old merchants' edit call, any other write),
 * as `ach_groups` is kept; an ISO left with none has no row, so a migrated database equals a fresh one. Row-level
 * security as on `pci_merchants`; only the trigger writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table pci_open_counts (
       partner_id integer primary key references partners (id),
       merchants integer not null
     )`,
    `insert into pci_open_counts (partner_id, merchants)
       select partner_id, count(*) from pci_merchants where merchant_status = '' group by partner_id`,
    ...keptFromRows({
      table: 'pci_merchants',
      name: 'open_counts',
      rows: `merchant_status = ''`,
      add: (signedRows) => `insert into pci_open_counts (partner_id, merchants)
         select partner_id, sum(sign) from (${signedRows}) x group by partner_id
         on conflict (partner_id) do update set merchants = pci_open_counts.merchants + excluded.merchants;`,
      tidy: 'delete from pci_open_counts where merchants = 0;',
      truncate: 'delete from pci_open_counts;',
    }),
  ]);
  await scopeToIso(db, 'pci_open_counts');
  await run(db, [
    `grant select on pci_open_counts to ${ISO_ROLE}`,
    `revoke insert, update, delete on pci_open_counts from ${ISO_ROLE}`,
  ]);
}

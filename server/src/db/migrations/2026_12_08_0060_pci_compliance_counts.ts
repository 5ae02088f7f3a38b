import type { Kysely } from 'kysely';
import { ISO_ROLE, keptFromRows, run, scopeToIso } from './helpers';

/**
 * Each ISO's count of merchants open for PCI billing, compliant and not, so the PCI merchants table filtered by
 * compliance (and by nothing else) counts a few thousand ISO rows instead of every matching merchant: 45,417
 * non-compliant ones at xl, 26 ms of the call's 31 (issue 18, docs/bench.md). Kept as `pci_open_counts` is, by a
 * statement-level trigger with transition tables; an ISO left with none of a kind has no row of it. Row-level
 * security as on `pci_merchants`; only the trigger writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table pci_open_compliance (
       partner_id integer not null references partners (id),
       pci_compliant boolean not null,
       merchants integer not null,
       primary key (partner_id, pci_compliant)
     )`,
    `insert into pci_open_compliance (partner_id, pci_compliant, merchants)
       select partner_id, pci_compliant, count(*) from pci_merchants where merchant_status = ''
       group by partner_id, pci_compliant`,
    ...keptFromRows({
      table: 'pci_merchants',
      name: 'open_compliance',
      rows: `merchant_status = ''`,
      add: (signedRows) => `insert into pci_open_compliance (partner_id, pci_compliant, merchants)
         select partner_id, pci_compliant, sum(sign) from (${signedRows}) x group by partner_id, pci_compliant
         on conflict (partner_id, pci_compliant)
         do update set merchants = pci_open_compliance.merchants + excluded.merchants;`,
      tidy: 'delete from pci_open_compliance where merchants = 0;',
      truncate: 'delete from pci_open_compliance;',
    }),
  ]);
  await scopeToIso(db, 'pci_open_compliance');
  await run(db, [
    `grant select on pci_open_compliance to ${ISO_ROLE}`,
    `revoke insert, update, delete on pci_open_compliance from ${ISO_ROLE}`,
  ]);
}

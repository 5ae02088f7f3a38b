import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * Each PCI row carries its merchant's DBA (issue 18). The PCI merchants table filtered or searched by DBA read every
 * merchant with the prefix and then probed its PCI row, for the page and again for the count: DBA "gol" at the large
 * scale is 2,177 merchants, 24 / 30 ms a call (39 / 49 ms at xl). With the DBA on the PCI row, a partial index of
 * the open rows by DBA prefix answers the filter, its order by MID and its count without reading the merchants, and
 * two more answer a sort by DBA.
 *
 * The copy is kept true by the database, whoever writes: a PCI row takes its merchant's DBA whenever it is written
 * (a DBA written to it directly is replaced by the merchant's), and a merchant's new DBA is written to its PCI row.
 * The functions are SECURITY DEFINER, as the other kept figures are: whoever may rename a merchant keeps its PCI row
 * in step without being granted writes to it. The backfill holds the table (an ACCESS EXCLUSIVE lock while it is
 * rewritten: about 5 s for 250,000 merchants).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'alter table pci_merchants add column dba text',
    'update pci_merchants p set dba = m.dba from merchants m where m.id = p.merchant_id',
    'alter table pci_merchants alter column dba set not null',
    // The update wrote a second version of every row: without this the table and its indexes stay twice their
    // size, and every read of many PCI rows reads twice the pages (the Non-Compliant count at xl: 74 ms, 35 ms
    // rewritten). A new database has nothing to rewrite.
    'cluster pci_merchants using pci_merchants_pkey',
    `create function paydesk_pci_merchant_dba() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       select m.dba into new.dba from merchants m where m.id = new.merchant_id;
       return new;
     end $$`,
    `create trigger pci_merchants_dba before insert or update of merchant_id, dba on pci_merchants
       for each row execute function paydesk_pci_merchant_dba()`,
    `create function paydesk_merchant_dba_to_pci() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       update pci_merchants set dba = new.dba where merchant_id = new.id;
       return null;
     end $$`,
    `create trigger merchants_dba_to_pci after update of dba on merchants
       for each row when (old.dba is distinct from new.dba) execute function paydesk_merchant_dba_to_pci()`,
    `create index pci_merchants_open_dba on pci_merchants (lower(dba) text_pattern_ops, mid)
       where merchant_status = ''`,
    // A sort by DBA, either way, as the other sortable columns have (it sorted every open merchant: 43 ms at the
    // large scale, and 200 ms when it joined the merchants).
    `create index pci_merchants_dba_sort on pci_merchants (dba, merchant_id) where merchant_status = ''`,
    `create index pci_merchants_dba_sort_desc on pci_merchants (dba desc nulls last, merchant_id)
       where merchant_status = ''`,
  ]);
}

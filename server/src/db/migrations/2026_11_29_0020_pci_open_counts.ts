import type { Kysely } from 'kysely';
import { ISO_ROLE, run, scopeToIso } from './helpers';

/** Adds the signed rows' open merchants to their ISOs' counts (the trigger's insert, update and delete alike). */
const addToCounts = (signedRows: string) => `
  insert into pci_open_counts (partner_id, merchants)
  select partner_id, sum(sign) from (${signedRows}) x group by partner_id
  on conflict (partner_id) do update set merchants = pci_open_counts.merchants + excluded.merchants;
  delete from pci_open_counts where merchants = 0;`;

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
    `create function paydesk_pci_open_counts() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       if tg_op = 'INSERT' then
         ${addToCounts(`select partner_id, 1 as sign from new_rows where merchant_status = ''`)}
       elsif tg_op = 'UPDATE' then
         ${addToCounts(`select partner_id, 1 as sign from new_rows where merchant_status = ''
                        union all select partner_id, -1 from old_rows where merchant_status = ''`)}
       elsif tg_op = 'DELETE' then
         ${addToCounts(`select partner_id, -1 as sign from old_rows where merchant_status = ''`)}
       else
         delete from pci_open_counts;
       end if;
       return null;
     end $$`,
    `create trigger pci_merchants_open_counts_insert after insert on pci_merchants referencing new table as new_rows
       for each statement execute function paydesk_pci_open_counts()`,
    `create trigger pci_merchants_open_counts_update after update on pci_merchants
       referencing old table as old_rows new table as new_rows
       for each statement execute function paydesk_pci_open_counts()`,
    `create trigger pci_merchants_open_counts_delete after delete on pci_merchants referencing old table as old_rows
       for each statement execute function paydesk_pci_open_counts()`,
    `create trigger pci_merchants_open_counts_truncate after truncate on pci_merchants
       for each statement execute function paydesk_pci_open_counts()`,
  ]);
  await scopeToIso(db, 'pci_open_counts');
  await run(db, [
    `grant select on pci_open_counts to ${ISO_ROLE}`,
    `revoke insert, update, delete on pci_open_counts from ${ISO_ROLE}`,
  ]);
}

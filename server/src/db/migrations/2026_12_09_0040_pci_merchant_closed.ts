import type { Kysely } from 'kysely';
import { keptForIso, keptFromRows, run } from './helpers';

/**
 * The PCI Old Merchants tab lists the PCI rows of closed merchants. Each page and its count joined every PCI row to
 * its merchant to test the merchant's status: 34,000 closed of 86,000 at the large scale, 49 ms a page; 146 ms at
 * xl (issue 18, docs/bench.md). Now each PCI row carries whether its merchant is closed, kept true by the database
 * whoever writes (as its DBA is, 2026_12_01_0010): a PCI row takes its merchant's status whenever it is written, and
 * a merchant's change of status is written to its PCI row. Each ISO's count of such rows is kept by a
 * statement-level trigger (as `pci_open_compliance` is), so the tab without a filter counts a few thousand rows,
 * and a partial index by MID gives its pages in order. The backfill rewrites the table, as the DBA's did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'alter table pci_merchants add column merchant_closed boolean not null default false',
    `update pci_merchants p set merchant_closed = true from merchants m
       where m.id = p.merchant_id and m.status = 'Closed'`,
    'cluster pci_merchants using pci_merchants_pkey',
    `create function paydesk_pci_merchant_closed() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       new.merchant_closed := coalesce((select m.status = 'Closed' from merchants m where m.id = new.merchant_id), false);
       return new;
     end $$`,
    `create trigger pci_merchants_closed before insert or update of merchant_id, merchant_closed on pci_merchants
       for each row execute function paydesk_pci_merchant_closed()`,
    `create function paydesk_merchant_closed_to_pci() returns trigger language plpgsql security definer
       set search_path = public as $$
     begin
       update pci_merchants set merchant_closed = (new.status = 'Closed') where merchant_id = new.id;
       return null;
     end $$`,
    `create trigger merchants_closed_to_pci after update of status on merchants
       for each row when (old.status is distinct from new.status) execute function paydesk_merchant_closed_to_pci()`,
    'create index pci_merchants_closed_mid on pci_merchants (mid) where merchant_closed',
    `create table pci_closed_counts (
       partner_id integer primary key references partners (id),
       merchants integer not null
     )`,
    `insert into pci_closed_counts (partner_id, merchants)
       select partner_id, count(*) from pci_merchants where merchant_closed group by partner_id`,
    ...keptFromRows({
      table: 'pci_merchants',
      name: 'closed_counts',
      rows: 'merchant_closed',
      add: (signedRows) => `insert into pci_closed_counts (partner_id, merchants)
         select partner_id, sum(sign) from (${signedRows}) x group by partner_id
         on conflict (partner_id) do update set merchants = pci_closed_counts.merchants + excluded.merchants;`,
      tidy: 'delete from pci_closed_counts where merchants = 0;',
      truncate: 'delete from pci_closed_counts;',
    }),
  ]);
  await keptForIso(db, 'pci_closed_counts');
}

import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The open PCI merchants by merchant, with their ISO: a PCI merchants page filtered by the merchant's DBA (a lookup
 * column, server/src/areas/pci/tables.ts) finds the few thousand merchants by their DBA prefix and then each one's
 * PCI row. With this index each of those is one probe of a small index that answers the join to the ISO too; without
 * it PostgreSQL read every open PCI row to hash them (DBA "gol" at the large scale: 49 ms of SQL, 6–10 ms with it;
 * issue 18, docs/bench.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create index pci_merchants_open_merchant on pci_merchants (merchant_id) include (partner_id)
       where merchant_status = ''`,
  ]);
}

import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The PCI merchants table's Compliant / Non-Compliant filter reads the status word made from the flag
 * (server/src/areas/pci/tables.ts). An index on that same expression, over the open merchants, lets a filtered
 * page count its rows from the index instead of reading every open merchant (issue 18).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create index pci_merchants_compliant on pci_merchants
       ((case when pci_compliant then 'Compliant' else 'Non-Compliant' end), mid)
       where merchant_status = ''`,
  ]);
}

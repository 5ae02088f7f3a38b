import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * Each ISO's count of open PCI merchants is the sum of its two rows in `pci_open_compliance` (compliant and not,
 * 2026_12_08_0060), so `pci_open_counts` (2026_11_29_0020) and the trigger that kept it are dropped: one kept
 * summary on `pci_merchants` instead of two, and one trigger less on every write to it. The PCI merchants table
 * counts its page without a filter from `pci_open_compliance` (areas/pci/tables.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    ...['insert', 'update', 'delete', 'truncate'].map(
      (event) => `drop trigger pci_merchants_open_counts_${event} on pci_merchants`,
    ),
    'drop function paydesk_pci_merchants_open_counts()',
    'drop table pci_open_counts',
  ]);
}

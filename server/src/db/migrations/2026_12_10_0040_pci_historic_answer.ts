import type { Kysely } from 'kysely';
import { answerVersion, run } from './helpers';

/**
 * The older client's whole Old Merchants list (/api/pci/GetHistoricMerchants: 34,000 rows at the large scale, each
 * with its two bank numbers decrypted, 740 ms) kept per scope and reading (in clear or masked) until a statement
 * writes a PCI merchant row or a partner (platform/answerCache.ts). A merchant's status reaches the list through its
 * PCI row (merchant_closed, 2026_12_09_0040), so a merchant closing bumps the version too. Issue 18 (docs/bench.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, answerVersion('pci_historic', ['pci_merchants', 'partners']));
}

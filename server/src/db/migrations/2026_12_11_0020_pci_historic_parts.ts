import type { Kysely } from 'kysely';
import { partsTriggerFunction, raiseParts, run, statementTriggers } from './helpers';

/**
 * The older client's whole Old Merchants list (/api/pci/GetHistoricMerchants: every closed merchant's PCI row by MID,
 * its bank numbers decrypted; 34,000 rows and about a second to make afresh at the large scale) kept in parts
 * (platform/answerCache.ts, keptArrayInParts): one part per MID prefix of 8 characters (430 at the large scale, 80
 * rows each on average), each with a version in `answer_part_versions`. Parts this small compress a fifth worse
 * than the whole list (each part is compressed on its own; 1.38 MB against 1.15 MB at large); prefixes of 7 made
 * an edit decrypt 1,000 rows (45 ms against 20). A statement writing a PCI row of a closed
 * merchant (before or after) raises its prefix's version; renaming a partner raises the prefixes of its closed rows.
 * Any other write (an open merchant's PCI row, a partner's other columns) leaves the list as it was, and an edit of
 * one old merchant makes the next ask decrypt its prefix's rows alone. A truncate raises the answer's own version.
 *
 * Every prefix with a closed row has a version row (written here for the rows already there, and by the triggers
 * for later ones): the parts of the list are those rows, read in the request's own snapshot.
 */
const PREFIX = 8;
const prefixes = (mids: string) =>
  raiseParts('pci_historic', `select left(x.mid, ${PREFIX}) from (${mids}) x(mid)`);
const fn = (name: string, body: Parameters<typeof partsTriggerFunction>[2]) =>
  partsTriggerFunction(name, 'pci_historic', body);

const closedOf = (partners: string) =>
  `select mid from pci_merchants where partner_id in (${partners}) and merchant_closed`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'drop trigger pci_merchants_pci_historic_answer_version on pci_merchants',
    'drop trigger partners_pci_historic_answer_version on partners',
    // A part's rows, found by their prefix.
    `create index pci_merchants_closed_prefix on pci_merchants (left(mid, ${PREFIX})) where merchant_closed`,
    `insert into answer_part_versions (name, part, version)
       select 'pci_historic', left(mid, ${PREFIX}), 0 from pci_merchants where merchant_closed group by 2
       on conflict do nothing`,
    fn('paydesk_pci_merchants_historic_parts', {
      insert: prefixes('select mid from new_rows where merchant_closed'),
      update: prefixes(
        'select mid from new_rows where merchant_closed union all select mid from old_rows where merchant_closed',
      ),
      delete: prefixes('select mid from old_rows where merchant_closed'),
    }),
    fn('paydesk_partners_historic_parts', {
      update: prefixes(
        closedOf(`select n.id from new_rows n join old_rows o on o.id = n.id
          where n.account_name is distinct from o.account_name`),
      ),
      delete: prefixes(closedOf('select id from old_rows')),
    }),
    ...statementTriggers('pci_merchants', 'historic_parts', 'paydesk_pci_merchants_historic_parts'),
    ...statementTriggers('partners', 'historic_parts', 'paydesk_partners_historic_parts'),
  ]);
}

import { sql } from 'kysely';
import type { Db } from '../db/connect';

/**
 * Large answers that change rarely (the whole partner directory, the sandbox CRM's lead list), kept as the JSON text last written for each
 * scope and answer version. The version is a counter in `answer_versions` that a statement-level trigger raises
 * in every transaction writing a table the answer reads (migration 2026_11_23_0005). The request reads it in its
 * own transaction, so it is the version of the snapshot the request sees: an entry written for that version is
 * exactly what the query would answer now, and a write by another instance on the same database is seen at once.
 *
 * Entries are per database (tests run many in one process) and per scope key (the ISO of an ISO-bound user, or
 * everyone); a bounded number of entries is kept, the least recently used dropped first.
 */
const MAX_ENTRIES = 64;
const caches = new WeakMap<Db, Map<string, { version: string; text: string }>>();

/**
 * partners: the partner directory; pci_billing: a month's PCI billing and commissions (GetBilling, GetCommissions);
 * leads: the CRM lead list (GetLeads); iso_partners: the ISO partners dashboard's directory and statuses per date
 * ranges (GetPartners, GetPartnersStatus and the ISO performance table); bi: ISO analytics and the executive ISO
 * list (isoanalyticsdata, GetAllInformation).
 */
export type AnswerName = 'partners' | 'pci_billing' | 'leads' | 'iso_partners' | 'bi';

/**
 * `database` is the application's Db (the cache's key), `trx` the request's transaction. `byDay`: the answer also
 * depends on the day (a merchant closing tomorrow is open today), so an entry is kept for the database's current
 * day only.
 */
export async function cachedAnswer(
  database: Db,
  trx: Db,
  name: AnswerName,
  scopeKey: string,
  compute: () => Promise<string>,
  { byDay = false }: { byDay?: boolean } = {},
): Promise<string> {
  const { rows } = await sql<{ version: string }>`
    select version::text || ${byDay ? sql`':' || current_date::text` : sql`''`} as version
    from answer_versions where name = ${name}`.execute(trx);
  const version = rows[0]?.version;
  if (version === undefined) throw new Error(`No answer version for ${name}`);
  let cache = caches.get(database);
  if (!cache) {
    cache = new Map();
    caches.set(database, cache);
  }
  const key = `${name}:${scopeKey}`;
  const hit = cache.get(key);
  if (hit?.version === version) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.text;
  }
  const text = await compute();
  cache.delete(key);
  cache.set(key, { version, text });
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return text;
}

import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The merchants approved in a span of days, every ISO's (the bonus Activation list: the last 75 days, 4,350
 * merchants of 86,000 at the large scale). The index by ISO and approval day serves an ISO-bound user; staff read
 * every merchant's row to find them (42 ms at the large scale, 7 ms by this index). Issue 18 (docs/bench.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, ['create index merchants_approved_on on merchants (approved_on)']);
}

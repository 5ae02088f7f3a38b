import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * The ISO status call (`/api/iso/GetPartnersStatus`) shows each ISO's latest approval: a backward walk of this
 * index per ISO. Without it PostgreSQL read every approved application of every ISO (1.1 s at the large scale;
 * 25 ms with it, see docs/bench.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'create index applications_partner_approved on applications (partner_id, approved_at) where approved_at is not null',
  ]);
}

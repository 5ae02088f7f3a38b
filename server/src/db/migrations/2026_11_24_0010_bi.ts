import type { Kysely } from 'kysely';
import { run } from './helpers';

/**
 * Business Intelligence reads merchants by group (the executive calls take group IDs; ISO analytics joins the
 * chosen groups) and by ISO in approval order (the stats' window of approvals).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    'create index merchants_group on merchants (group_id)',
    'create index merchants_partner_approved on merchants (partner_id, approved_on)',
  ]);
}

import type { Kysely } from 'kysely';
import { hideFromIsoRole } from './helpers';

/**
 * Approval goals are the company's internal targets, not any ISO's: an ISO-bound request may not read them,
 * so no query written later can hand them to a partner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await hideFromIsoRole(db, ['approval_goals']);
}

import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { ISO_ROLE, PUBLIC_TOKEN_ROLE } from '../db/migrations/helpers';

/**
 * ISO scoping. A request of a user bound to an ISO runs its transaction as the database role ISO_ROLE with
 * `paydesk.iso_id` set; row-level security policies on every partner- and merchant-level table (see
 * migrations/helpers.ts scopeToIso) then hide other ISOs' rows from every query, written or not yet written.
 * Internal staff (no ISO) run as the table owner and see all rows.
 */
export async function scopeTransaction(trx: Db, isoId: number | null): Promise<void> {
  if (isoId === null) return;
  await sql`select set_config('paydesk.iso_id', ${String(isoId)}, true)`.execute(trx);
  await sql.raw(`set local role ${ISO_ROLE}`).execute(trx);
}

/** A public-token request (no session) runs as a role with no grants on business tables. */
export async function runAsPublicToken(trx: Db): Promise<void> {
  await sql.raw(`set local role ${PUBLIC_TOKEN_ROLE}`).execute(trx);
}

import type { Kysely } from 'kysely';
import { hideFromIsoRole, run } from './helpers';

/**
 * Failed sign-ins counted per client address, and per e-mail address that has no account (so an unknown address
 * answers exactly as a real one does: locked after the same number of failures). Accounts keep their own count
 * on `users`. See docs/security.md, "Sign-in throttling".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await run(db, [
    `create table signin_throttle (
       key text primary key,
       failures integer not null default 0,
       window_started_at timestamptz not null default now(),
       locked_until timestamptz
     )`,
  ]);
  await hideFromIsoRole(db, ['signin_throttle']);
}

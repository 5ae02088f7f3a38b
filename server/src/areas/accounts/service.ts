import {
  CLIENT_SIGNIN_LIMIT,
  CLIENT_SIGNIN_WINDOW_MS,
  LOCKOUT_MS,
  MAX_FAILED_SIGNINS,
  PASSWORD_HISTORY_DEPTH,
  passwordProblem,
} from '@paydesk/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connect';
import type { UserRecord } from '../../db/schema';
import { decoyHash, hashPassword, sha256, verifyPassword } from '../../platform/crypto';
import { badRequest } from '../../platform/errors';
import { recentPasswordHashes, setPassword } from './queries';

export type SigninOutcome =
  | { kind: 'ok' }
  | { kind: 'wrong'; lockedNow: boolean }
  | { kind: 'locked'; minutesLeft: number }
  | { kind: 'inactive' };

export function lockMessage(minutesLeft: number) {
  const minutes = `${minutesLeft} minute${minutesLeft === 1 ? '' : 's'}`;
  return `This account is locked after ${MAX_FAILED_SIGNINS} failed sign-ins. Try again in ${minutes}, or reset your password.`;
}

export const WRONG_CREDENTIALS = 'Invalid email or password';
export const INACTIVE_ACCOUNT = 'This account is disabled. Please contact an administrator.';

const minutesUntil = (until: Date, now: number) => Math.max(1, Math.ceil((until.getTime() - now) / 60_000));

/** The lockout rule, the same for an account and for an address without one. */
function lockState(lockedUntil: Date | string | null, now: number): SigninOutcome | null {
  if (lockedUntil && new Date(lockedUntil).getTime() > now)
    return { kind: 'locked', minutesLeft: minutesUntil(new Date(lockedUntil), now) };
  return null;
}

/** Whether the password given matches a hash (areas/accounts/passwordAhead.ts: possibly checked already). */
export type PasswordCheck = (hash: string) => Promise<boolean>;

/**
 * Checks a password and keeps the lockout count: the 10th failure in a row locks the account for 30
 * minutes; a success clears the count. A locked account is refused without checking the password.
 */
export async function checkSignin(db: Db, user: UserRecord, matches: PasswordCheck): Promise<SigninOutcome> {
  const now = Date.now();
  const locked = lockState(user.locked_until, now);
  if (locked) return locked;
  if (!(await matches(user.password_hash))) {
    const failures = user.failed_signins + 1;
    const lockedNow = failures >= MAX_FAILED_SIGNINS;
    await db
      .updateTable('users')
      .set(
        lockedNow
          ? { failed_signins: 0, locked_until: new Date(now + LOCKOUT_MS) }
          : { failed_signins: failures, locked_until: null },
      )
      .where('id', '=', user.id)
      .execute();
    return { kind: 'wrong', lockedNow };
  }
  if (!user.active) return { kind: 'inactive' };
  await db
    .updateTable('users')
    .set({ failed_signins: 0, locked_until: null, last_signin_at: new Date(now) })
    .where('id', '=', user.id)
    .execute();
  return { kind: 'ok' };
}

/**
 * A sign-in for an e-mail address that has no account fails exactly as a wrong password does, including the
 * lock after the same number of failures, so the answers never tell which addresses have accounts.
 */
export async function checkUnknownSignin(
  db: Db,
  email: string,
  matches: PasswordCheck,
): Promise<SigninOutcome> {
  const now = Date.now();
  const key = `email:${sha256(email)}`;
  const row = await db.selectFrom('signin_throttle').selectAll().where('key', '=', key).executeTakeFirst();
  const locked = lockState(row?.locked_until ?? null, now);
  if (locked) return locked;
  await matches(await decoyHash());
  const failures = (row && !row.locked_until ? row.failures : 0) + 1;
  const lockedNow = failures >= MAX_FAILED_SIGNINS;
  const values = lockedNow
    ? { failures: 0, locked_until: new Date(now + LOCKOUT_MS) }
    : { failures, locked_until: null };
  await db
    .insertInto('signin_throttle')
    .values({ key, ...values })
    .onConflict((oc) => oc.column('key').doUpdateSet(values))
    .execute();
  return { kind: 'wrong', lockedNow };
}

/**
 * Failed sign-ins from one client address, over every account it tries: past CLIENT_SIGNIN_LIMIT in the window
 * the address is refused (429) before any password is checked, so a stranger cannot run through accounts or keep
 * re-locking one. Answers the minutes until the window ends, or null when the address may try.
 */
export async function clientThrottle(db: Db, ip: string): Promise<number | null> {
  const row = await db
    .selectFrom('signin_throttle')
    .select(['failures', 'window_started_at'])
    .where('key', '=', `client:${ip}`)
    .executeTakeFirst();
  if (!row || row.failures < CLIENT_SIGNIN_LIMIT) return null;
  const ends = new Date(new Date(row.window_started_at).getTime() + CLIENT_SIGNIN_WINDOW_MS);
  return ends.getTime() > Date.now() ? minutesUntil(ends, Date.now()) : null;
}

export async function recordClientFailure(db: Db, ip: string): Promise<void> {
  const windowMs = CLIENT_SIGNIN_WINDOW_MS;
  await sql`
    insert into signin_throttle (key, failures, window_started_at) values (${`client:${ip}`}, 1, now())
    on conflict (key) do update set
      failures = case when signin_throttle.window_started_at < now() - ${`${windowMs} milliseconds`}::interval
                      then 1 else signin_throttle.failures + 1 end,
      window_started_at = case when signin_throttle.window_started_at < now() - ${`${windowMs} milliseconds`}::interval
                      then now() else signin_throttle.window_started_at end`.execute(db);
}

export function clientThrottleMessage(minutesLeft: number) {
  return `Too many failed sign-ins from your network. Try again in ${minutesLeft} minute${minutesLeft === 1 ? '' : 's'}, or reset your password.`;
}

/** Applies the password rule and the history rule, then stores the new password. */
export async function replacePassword(db: Db, userId: number, password: string): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw badRequest(problem);
  for (const previous of await recentPasswordHashes(db, userId)) {
    if (await verifyPassword(previous, password)) {
      throw badRequest(`The new password must differ from your last ${PASSWORD_HISTORY_DEPTH} passwords`);
    }
  }
  await setPassword(db, userId, await hashPassword(password));
}

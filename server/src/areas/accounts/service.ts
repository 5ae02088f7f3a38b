import { LOCKOUT_MS, MAX_FAILED_SIGNINS, PASSWORD_HISTORY_DEPTH, passwordProblem } from '@paydesk/domain';
import type { Db } from '../../db/connect';
import type { UserRecord } from '../../db/schema';
import { hashPassword, verifyPassword } from '../../platform/crypto';
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

/**
 * Checks a password and keeps the lockout count: the 10th failure in a row locks the account for 30
 * minutes; a success clears the count. A locked account is refused without checking the password.
 */
export async function checkSignin(db: Db, user: UserRecord, password: string): Promise<SigninOutcome> {
  const now = Date.now();
  if (user.locked_until && new Date(user.locked_until).getTime() > now) {
    return { kind: 'locked', minutesLeft: Math.ceil((new Date(user.locked_until).getTime() - now) / 60_000) };
  }
  if (!(await verifyPassword(user.password_hash, password))) {
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

import { type Capability, type Department, PASSWORD_HISTORY_DEPTH } from '@paydesk/domain';
import type { Db } from '../../db/connect';

export function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Db, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function capabilitiesOf(db: Db, userId: number) {
  const rows = await db
    .selectFrom('user_capabilities')
    .select('capability')
    .where('user_id', '=', userId)
    .orderBy('capability')
    .execute();
  return rows.map((r) => r.capability);
}

export async function isoNameOf(db: Db, partnerId: number | null) {
  if (partnerId === null) return null;
  const row = await db
    .selectFrom('partners')
    .select('account_name')
    .where('id', '=', partnerId)
    .executeTakeFirst();
  return row?.account_name ?? null;
}

/** The most recent password hashes, the current one included. */
export async function recentPasswordHashes(db: Db, userId: number) {
  const rows = await db
    .selectFrom('password_history')
    .select('password_hash')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(PASSWORD_HISTORY_DEPTH)
    .execute();
  return rows.map((r) => r.password_hash);
}

export async function setPassword(db: Db, userId: number, passwordHash: string) {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      password_changed_at: new Date(),
      failed_signins: 0,
      locked_until: null,
    })
    .where('id', '=', userId)
    .execute();
  await db.insertInto('password_history').values({ user_id: userId, password_hash: passwordHash }).execute();
}

export interface NewUser {
  email: string;
  department: Department;
  passwordHash: string;
  capabilities?: readonly Capability[];
  partnerId?: number | null;
}

/** A user, the first entry of its password history, and its capabilities. */
export async function createUser(db: Db, user: NewUser): Promise<number> {
  const { id } = await db
    .insertInto('users')
    .values({
      email: user.email,
      department: user.department,
      password_hash: user.passwordHash,
      partner_id: user.partnerId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('password_history').values({ user_id: id, password_hash: user.passwordHash }).execute();
  if (user.capabilities?.length) {
    await db
      .insertInto('user_capabilities')
      .values(user.capabilities.map((capability) => ({ user_id: id, capability })))
      .execute();
  }
  return id;
}

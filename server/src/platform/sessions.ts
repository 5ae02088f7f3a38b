import {
  type Capability,
  DEPT_COOKIE,
  type Department,
  EMAIL_COOKIE,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  type SessionUser,
} from '@paydesk/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { randomToken, sha256 } from './crypto';

/** The signed-in user of a request, read fresh from the database on every request. */
export interface RequestUser {
  id: number;
  email: string;
  department: Department;
  capabilities: Capability[];
  isoId: number | null;
  isoName: string | null;
  sessionHash: string;
}

export function toSessionUser(user: Omit<RequestUser, 'sessionHash'>): SessionUser {
  return {
    email: user.email,
    department: user.department,
    capabilities: user.capabilities,
    iso: user.isoId === null ? null : { id: user.isoId, name: user.isoName ?? '' },
  };
}

/** Sliding expiry is written at most this often, so ordinary requests do not write. */
const SLIDE_EVERY_MS = 60_000;

export async function createSession(db: Db, userId: number, req: FastifyRequest) {
  const token = randomToken();
  const publicId = randomToken(12);
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256(token),
      public_id: publicId,
      user_id: userId,
      expires_at: new Date(Date.now() + SESSION_TTL_MS),
      ip: req.ip,
      user_agent: req.headers['user-agent']?.slice(0, 300) ?? null,
    })
    .execute();
  return { token, publicId };
}

/** Finds the session of the request's `login` cookie; null when missing, unknown, expired or the user is inactive. */
export async function sessionUser(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<RequestUser | null> {
  const token = req.cookies[SESSION_COOKIE];
  if (!token) return null;
  const tokenHash = sha256(token);
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('partners as p', 'p.id', 'u.partner_id')
    .select(['u.id', 'u.email', 'u.department', 'u.partner_id', 'p.account_name', 's.last_seen_at'])
    // The user's capabilities in the same round trip: every request of a session asks this first.
    .select(
      sql<Capability[]>`array(select c.capability from user_capabilities c where c.user_id = u.id
        order by c.capability)`.as('capabilities'),
    )
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', new Date())
    .where('u.active', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  if (Date.now() - new Date(row.last_seen_at).getTime() > SLIDE_EVERY_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(), expires_at: new Date(Date.now() + SESSION_TTL_MS) })
      .where('token_hash', '=', tokenHash)
      .execute();
    setSessionCookies(req, reply, token, row.email, row.department);
  }
  return {
    id: row.id,
    email: row.email,
    department: row.department,
    capabilities: row.capabilities,
    isoId: row.partner_id,
    isoName: row.account_name,
    sessionHash: tokenHash,
  };
}

export async function endSession(db: Db, tokenHash: string) {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export async function endAllSessions(db: Db, userId: number) {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}

let secureSetting: 'auto' | 'true' | 'false' = 'auto';
export function configureCookies(setting: 'auto' | 'true' | 'false') {
  secureSetting = setting;
}

function cookieOptions(req: FastifyRequest) {
  const secure = secureSetting === 'auto' ? req.protocol === 'https' : secureSetting === 'true';
  return { path: '/', sameSite: 'lax' as const, secure, maxAge: SESSION_TTL_MS / 1000 };
}

/** `login` holds the secret and is HttpOnly; `email` and `dept` are for display only. */
export function setSessionCookies(
  req: FastifyRequest,
  reply: FastifyReply,
  token: string,
  email: string,
  department: string,
) {
  const options = cookieOptions(req);
  reply.setCookie(SESSION_COOKIE, token, { ...options, httpOnly: true });
  reply.setCookie(EMAIL_COOKIE, email, options);
  reply.setCookie(DEPT_COOKIE, department, options);
}

export function clearSessionCookies(req: FastifyRequest, reply: FastifyReply) {
  const { maxAge: _, ...options } = cookieOptions(req);
  for (const name of [SESSION_COOKIE, EMAIL_COOKIE, DEPT_COOKIE]) reply.clearCookie(name, options);
}

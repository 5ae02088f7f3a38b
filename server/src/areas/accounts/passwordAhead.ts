import type { FastifyRequest } from 'fastify';
import { verifyPassword } from '../../platform/crypto';

/**
 * A sign-in's password check, started before its transaction opens.
 *
 * The check is argon2 (about 12 ms of a core, on libuv's thread pool). It used to start only once the sign-in's
 * transaction had read the account: on the embedded database, whose one connection a transaction holds from `begin`
 * to `commit`, a sign-in arriving during someone else's transaction (an import's publishing step, ISO analytics
 * recomputed after a change: 25–50 ms on a busy machine) waited for it, then held the connection through its own
 * argon2, so nobody else's statement ran meanwhile. Now, when the address has been tried before, its check
 * starts as the request arrives, against the hash the last sign-in read, and runs while the sign-in waits for the
 * connection. The transaction then reads the account as before; the early check's answer is used only if the hash it
 * checked is the one the transaction read (a password changed since is checked again, inside). What a sign-in
 * decides, and when it refuses, is exactly as before (docs/architecture.md, *Sign-in before bulk work*;
 * docs/security.md).
 *
 * - **Addresses without an account** are remembered with the decoy's hash (platform/crypto.ts), so whether a
 *   sign-in is checked early tells only whether its address was tried before since the server started, never
 *   whether it has an account.
 * - **Bounded**: REMEMBERED addresses at most, the least recently tried forgotten first. Only argon2 hashes are
 *   kept (never a password); the process reads them on every sign-in anyway.
 * - **Work**: a sign-in that is then refused before its password is checked (its address or account locked) has
 *   done one argon2 it did not need; the per-address limit on the sign-in route (10 a minute,
 *   platform/rateLimits.ts) bounds that as it bounds every check.
 */
export const REMEMBERED = 10_000;

/** Each address's hash, as a sign-in last read it (the decoy's for an address without an account). */
const lastHashes = new Map<string, string>();
/** The early check of each sign-in under way, by its request. */
const early = new WeakMap<FastifyRequest, { hash: string; matches: Promise<boolean> }>();
let startedAhead = 0;

/** Starts `req`'s password check now if its address's hash is known (before its transaction opens). */
export function checkPasswordAhead(req: FastifyRequest, email: string, password: string): void {
  const hash = lastHashes.get(email);
  // verifyPassword answers false for any failure: the promise never rejects, awaited or not.
  if (hash === undefined) return;
  early.set(req, { hash, matches: verifyPassword(hash, password) });
  startedAhead++;
}

/** Remembers `hash` as the address's (the last read, or the one just written), the least recently tried forgotten. */
export function rememberHash(email: string, hash: string): void {
  lastHashes.delete(email);
  lastHashes.set(email, hash);
  if (lastHashes.size > REMEMBERED) {
    const oldest = lastHashes.keys().next().value;
    if (oldest !== undefined) lastHashes.delete(oldest);
  }
}

/**
 * Whether `password` matches `hash`, the hash `req`'s transaction read for `email` (the decoy's when it has no
 * account): the early check's answer when it checked that hash, else a check now. Remembers the hash for the
 * address's next sign-in.
 */
export function passwordMatches(
  req: FastifyRequest,
  email: string,
  hash: string,
  password: string,
): Promise<boolean> {
  rememberHash(email, hash);
  const ahead = early.get(req);
  early.delete(req);
  return ahead?.hash === hash ? ahead.matches : verifyPassword(hash, password);
}

/** How many checks were started ahead since the server started (tests). */
export const checksStartedAhead = () => startedAhead;

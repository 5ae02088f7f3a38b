import rateLimit, {
  type FastifyRateLimitStore,
  normalizeIP,
  type RateLimitOptions,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from './errors';

interface RateLimit {
  /** Requests one client address may make in the window; the next ones are answered 429 until it ends. */
  max: number;
  windowMs: number;
  /** How the refusal names what was counted: a form's attempts, or plain requests. */
  counted: 'attempts' | 'requests';
}

const MINUTE = 60_000;

/**
 * Every rate limit of the API, per client address (req.ip: the socket's address, or with TRUST_PROXY=true the
 * one the proxy names; IPv6 addresses count per /64, what one subscriber usually holds). Counted in this
 * process's memory in fixed windows: with several server instances each counts its own, so a client gets the
 * allowance once per instance. The database-backed sign-in throttles (docs/security.md, *Sign-in throttling*)
 * are the cross-instance guard against password guessing; these limits come first, refuse a flood before it
 * reaches the database, and keep one client from filling the audit log, the outbox or the CPU (argon2).
 */
export const RATE_LIMITS = {
  /**
   * Sign-in. A person retyping a password makes a few tries a minute; an office behind one address signs in
   * far less than ten times in one minute. Password guessing is bounded more tightly by the database (10
   * failures lock an account, 20 failures in 15 minutes refuse the address); this caps the argon2 work and
   * the audit rows a flood would cost, successes included.
   */
  signin: { max: 10, windowMs: MINUTE, counted: 'attempts' },
  /** Each request may send an e-mail: five a minute is plenty for a person and keeps mailboxes from a flood. */
  forgotPassword: { max: 5, windowMs: MINUTE, counted: 'attempts' },
  /**
   * Choosing a new password from a reset link. The 256-bit code cannot be guessed; the limit caps the password
   * hashing (a new hash and up to four history checks each) for someone who holds a link.
   */
  resetPassword: { max: 5, windowMs: MINUTE, counted: 'attempts' },
  /**
   * Registering users (admins only). Filling the form takes a person longer than six seconds; the limit
   * keeps a stolen admin session or a runaway script from creating accounts in bulk.
   */
  registration: { max: 10, windowMs: MINUTE, counted: 'attempts' },
  /**
   * The session probe, which the web app makes on each page it opens: one indexed read of the cookie's
   * session. An office behind one address (every colleague opening pages) must not be refused; a 429 here
   * keeps the user signed in on the web (session.tsx).
   */
  sessionProbe: { max: 600, windowMs: MINUTE, counted: 'requests' },
  /**
   * Every other call without a session: sign-out, the reset-link check, the API reference, and the coming
   * single-purpose-token pages.
   */
  publicRoute: { max: 120, windowMs: MINUTE, counted: 'requests' },
  /**
   * The underwriter's approval link (/leads/app): one person opens it and decides, a few requests. The 256-bit
   * token cannot be guessed; the limit keeps a client from hammering the token lookup.
   */
  leadApproval: { max: 30, windowMs: MINUTE, counted: 'requests' },
  /**
   * API paths that do not exist (404): the app never calls one, so a client that does is probing for routes.
   * Pages of the web app are served by the same handler but not counted.
   */
  unknownPath: { max: 30, windowMs: MINUTE, counted: 'requests' },
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** "Too many attempts from your address. Try again in 47 seconds." */
export function tooManyMessage(counted: RateLimit['counted'], waitMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const wait =
    seconds < 90 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;
  return `Too many ${counted} from your address. Try again in ${wait}.`;
}

/** The plugin options of one limit: its own count per address, shared by every route that names it. */
export function rateLimitOptions(name: RateLimitName): RateLimitOptions {
  const limit: RateLimit = RATE_LIMITS[name];
  return {
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (req) => `${name} ${normalizeIP(req.ip)}`,
    errorResponseBuilder: (_req, context) =>
      new AppError('too_many_requests', tooManyMessage(limit.counted, context.ttl)),
  };
}

/** Most addresses counted at once (about 100 bytes each); past it the one counted longest ago is dropped. */
const TRACKED_ADDRESSES = 50_000;

/**
 * Fixed-window counts, one store for the whole app. The plugin's own store keeps one per route, so a limit
 * on a call with two paths (register and its legacy path) would allow twice its number.
 */
class WindowCounts implements FastifyRateLimitStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  incr(
    key: string,
    done: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const now = Date.now();
    const current = this.windows.get(key);
    const entry = current && current.endsAt > now ? current : { count: 0, endsAt: now + timeWindow };
    entry.count += 1;
    // Map order is insertion order: re-inserting keeps the least recently counted address first.
    this.windows.delete(key);
    this.windows.set(key, entry);
    if (this.windows.size > TRACKED_ADDRESSES) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    done(null, { current: entry.count, ttl: entry.endsAt - now });
  }

  child(): FastifyRateLimitStore {
    return this;
  }
}

/** A request handler that counts a request against a limit, and refuses it (429) past the limit. */
export type Limiter = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Registers the rate limiter (before any route, so it sees their `config.rateLimit`: route() in http.ts sets
 * it from the route's named limit) and returns the limiter of unknown paths for the not-found handler.
 * RATE_LIMITS=off registers nothing: the test suites play many users from one address.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<Limiter> {
  if (config.RATE_LIMITS === 'off') return async () => {};
  // global: false: only the routes that name a limit are counted, each with its own options.
  await app.register(rateLimit, { global: false, store: WindowCounts });
  const unknownPath = app.rateLimit(rateLimitOptions('unknownPath'));
  return async (req, reply) => {
    await unknownPath.call(app, req, reply);
  };
}

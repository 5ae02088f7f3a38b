import { promisify } from 'node:util';
import { gunzip, gzip, constants as zlibConstants } from 'node:zlib';
import {
  type Endpoint,
  type FileAnswer,
  hasPermission,
  type Method,
  type Permission,
  type ResultOf,
} from '@paydesk/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/connect';
import type { Crm } from './crm';
import { AppError, forbidden } from './errors';
import { gzipOf, type Piece, textOf, utf8Of } from './gzipPieces';
import type { Jobs } from './jobs';
import type { Mailer } from './mailer';
import { type RateLimitName, rateLimitOptions } from './rateLimits';
import { runAsPublicToken, scopeTransaction } from './scope';
import { type RequestUser, sessionUser } from './sessions';
import { inBulkTurn, signingIn } from './signinFirst';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by route() for routes that declare `file`: only they read an .xlsx body. */
    takesFile?: boolean;
  }
}

/** What routes need from the running application. */
export interface Deps {
  db: Db;
  mailer: Mailer;
  config: Config;
  /** Background jobs (platform/jobs.ts): queue one with `jobs.send(definition, payload, { db })`. */
  jobs: Jobs;
  /** The CRM partners come from (platform/crm); the sandbox CRM when not given. */
  crm?: Crm;
}

/** public: no session needed; session: any signed-in user; otherwise the named permission. */
export type Access = 'public' | 'session' | Permission;

/**
 * Whose data a route touches, declared by every route (route() refuses a definition without one):
 * - 'iso': business data. ISO-bound (partner) users may call it; their transaction runs as the ISO role, so
 *   row-level security shows them only their ISO's rows, and a missing ISO setting fails closed.
 * - 'staffOnly': business data for internal staff only. ISO-bound users are refused (403) before anything runs.
 * - 'platform': the caller's own account and session, or administration of the platform tables (users, audit
 *   log, outbox). Runs as the table owner; an ISO-bound caller is allowed only where access is 'public' or
 *   'session' (their own account). A platform route never reads business tables.
 * - 'publicToken': no session; the caller holds a single-purpose token (the coming approval page). The
 *   transaction runs as a database role with no grants on business tables; the route's own tables grant it
 *   exactly what it needs.
 */
export type Scope = 'iso' | 'staffOnly' | 'platform' | 'publicToken';

export interface RouteContext<Input, A extends Access, Query = Record<string, never>> {
  input: Input;
  /** The query string of a POST route that declares `query`. */
  query: Query;
  /** The uploaded .xlsx file of a route that declares `file: true`, read whole; null when JSON was sent. */
  file: Buffer | null;
  user: A extends 'public' ? null : RequestUser;
  /** The request's transaction, as the route's scope says. */
  db: Db;
  req: FastifyRequest;
  reply: FastifyReply;
  /**
   * Work to do after the transaction has committed, on the same database connection but outside any
   * transaction: streaming a large answer from a held cursor to a slow client must not keep the
   * transaction (and, on the embedded database, its single connection) busy. The work sends the answer; the
   * handler then returns nothing (never `reply`, which is a promise of the finished answer).
   */
  afterCommit: (work: (connection: Db) => Promise<void>) => void;
  /** What the route's `prepare` made before the transaction opened (null for a route without one). */
  prepared: Prepared | null;
}

/**
 * Work a route does before its transaction opens, once the caller is known and allowed (RouteSpec.prepare): an
 * import reads its file into a staging table of its own and builds what nobody sees until it is published
 * (platform/imports.ts), so that its transaction holds only the short publishing step. Released after the
 * transaction, whatever its outcome.
 */
export interface Prepared {
  release(connection: Db): Promise<void>;
}

/** What `prepare` is given: the request, its caller, and the request's connection, outside any transaction. */
export interface PrepareContext<Input, Query = Record<string, never>> {
  input: Input;
  query: Query;
  file: Buffer | null;
  user: RequestUser;
  connection: Db;
}

export interface RouteSpec<
  S extends z.ZodType,
  A extends Access,
  Q extends z.ZodType = z.ZodType<Record<string, never>>,
> {
  method: 'GET' | 'POST';
  url: string | readonly string[];
  access: A;
  /** Required: whose data the route touches; see Scope. */
  scope: Scope;
  /** Schema of the POST body or the GET query string; unknown fields are refused. Default: nothing allowed. */
  input?: S;
  /** Schema of a POST route's query string. */
  query?: Q;
  /**
   * The route also takes a raw .xlsx body, read whole and bounded before the transaction opens (platform/uploads.ts);
   * otherwise `input` is the JSON body.
   */
  file?: boolean;
  /**
   * The per-address limit counted on this route (platform/rateLimits.ts). A route without a session always has
   * one: 'publicRoute' unless it names another.
   */
  rateLimit?: RateLimitName;
  /** The route signs a user in: bulk work waits while it runs (platform/signinFirst.ts). */
  signsIn?: true;
  /**
   * Work started, not awaited, once the input is valid and before the request waits for a connection: a sign-in
   * starts its password check (areas/accounts/passwordAhead.ts). Public routes only; it must not throw.
   */
  ahead?: (ctx: { input: z.output<S>; req: FastifyRequest }) => void;
  /** An export or an import: it runs in its turn, one at a time (platform/signinFirst.ts). */
  bulk?: true;
  /**
   * Work before the transaction (see Prepared), for a route with a session: it runs after a first short
   * transaction has found the session and checked the permission and the scope; the handler's transaction finds
   * the session again.
   */
  prepare?: (ctx: PrepareContext<z.output<S>, z.output<Q>>) => Promise<Prepared>;
  handler: (ctx: RouteContext<z.output<S>, A, z.output<Q>>) => Promise<unknown>;
}

/**
 * A route over an endpoint declared in domain/ (method, path, input and output schemas): the answer is sent
 * through the output schema, so only declared fields leave the server.
 */
export interface EndpointRouteSpec<
  E extends Endpoint,
  A extends Access,
  Q extends z.ZodType = z.ZodType<Record<string, never>>,
> {
  endpoint: E;
  access: A;
  scope: Scope;
  query?: Q;
  file?: boolean;
  rateLimit?: RateLimitName;
  signsIn?: true;
  ahead?: (ctx: {
    input: E['input'] extends z.ZodType ? z.output<E['input']> : Record<string, never>;
    req: FastifyRequest;
  }) => void;
  bulk?: true;
  prepare?: (
    ctx: PrepareContext<
      E['input'] extends z.ZodType ? z.output<E['input']> : Record<string, never>,
      z.output<Q>
    >,
  ) => Promise<Prepared>;
  handler: (
    ctx: RouteContext<
      E['input'] extends z.ZodType ? z.output<E['input']> : Record<string, never>,
      A,
      z.output<Q>
    >,
  ) => Promise<ResultOf<E> | JsonText<ResultOf<E>>>;
}

/**
 * An answer PostgreSQL has already written as JSON (`json_agg` over a fixed column list): sent as it is, without
 * parsing rows into objects, checking them against the output schema and serializing them again — for large
 * answers that is most of the request's time. The query's column list is then the whitelist of what leaves the
 * server, so a route answering this way must have an API test that parses its answer with the endpoint's output
 * schema and finds nothing stripped and nothing refused.
 */
export class JsonText<T> {
  declare readonly answer: T;
  /**
   * `encoded`: where the encodings of a kept answer (platform/answerCache.ts) are kept with it, so a large answer
   * asked again is neither encoded nor compressed again. `text` is null for an answer kept as pieces (its
   * `encoded.pieces` set) and for one kept compressed only, asked again (its `encoded.gzip` set).
   */
  constructor(
    readonly text: string | null,
    readonly encoded: KeptEncodings | null = null,
  ) {}
}

/** A kept answer's bytes, made on first use: as UTF-8, and gzip-compressed for clients that accept it. */
export interface KeptEncodings {
  utf8?: Buffer;
  gzip?: Promise<Buffer>;
  /**
   * Kept compressed only (an answer too large to keep as text): its UTF-8 bytes are made again for each client
   * that does not accept gzip, and never kept.
   */
  compressedOnly?: boolean;
  /**
   * The answer's text in pieces, some of them kept from earlier answers with their deflate data: its gzip bytes are
   * put together from them (gzipPieces.ts) instead of compressing the whole text again.
   */
  pieces?: readonly Piece[];
}

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** An answer's text compressed at zlib's fastest level, on zlib's thread. */
export const gzipFast = (text: string): Promise<Buffer> =>
  gzipAsync(Buffer.from(text), { level: zlibConstants.Z_BEST_SPEED });

/** The bytes of an answer kept compressed only. */
const gunzipBytes = async (gzipped: Promise<Buffer>): Promise<Buffer> => gunzipAsync(await gzipped);

/** The text of an answer kept compressed only. */
export const gunzipText = async (gzipped: Promise<Buffer>): Promise<string> =>
  (await gunzipBytes(gzipped)).toString('utf8');

/** Kept answers smaller than this are sent as they are; compressing them would save little. */
const COMPRESS_FROM = 64 * 1024;

/**
 * The body of a JsonText answer. A kept one of some size goes out gzip-compressed to a client that accepts it (a
 * browser always does: ISO analytics of every group is 4 MB of JSON at the large scale and about a tenth of
 * that compressed), compressed once at the fastest level on zlib's thread and kept with the answer; otherwise
 * as its UTF-8 bytes, also made once (or, for an answer kept compressed only, unpacked for that client). An answer
 * kept as pieces has both put together from its pieces (gzipPieces.ts): its text is never joined to be sent. Answers
 * not kept are sent as text: compressing them on every request would take the thread pool from sign-in's argon2.
 */
export async function jsonBody(result: JsonText<unknown>, req: FastifyRequest, reply: FastifyReply) {
  reply.type('application/json; charset=utf-8');
  const { text, encoded: kept } = result;
  if (!kept) {
    if (text === null) throw new Error('An answer without its text must be kept');
    return text;
  }
  const pieces = kept.pieces;
  const size = pieces ? pieces.reduce((n, p) => n + p.length, 0) : (text?.length ?? COMPRESS_FROM);
  if (size < COMPRESS_FROM) return text ?? textOf(pieces ?? []);
  reply.header('vary', 'accept-encoding');
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    if (!kept.gzip && pieces) kept.gzip = gzipOf(pieces);
    else if (!kept.gzip && text !== null) kept.gzip = gzipFast(text);
    reply.header('content-encoding', 'gzip');
    return kept.gzip;
  }
  if (pieces) {
    kept.utf8 ??= utf8Of(pieces);
    return kept.utf8;
  }
  if (text === null) {
    if (!kept.gzip) throw new Error('An answer without its text must be kept compressed');
    return gunzipBytes(kept.gzip);
  }
  if (kept.compressedOnly) return text;
  kept.utf8 ??= Buffer.from(text);
  return kept.utf8;
}

/** The JSON text PostgreSQL wrote for an answer of type T (see JsonText). */
export const jsonText = <T>(text: string): JsonText<T> => new JsonText<T>(text);

/** What the platform knows of each registered route: the API catalog (tests, the API reference). */
export interface CatalogEntry {
  method: Method;
  url: string;
  access: Access;
  scope: Scope;
  input: z.ZodType | null;
  query: z.ZodType | null;
  file: boolean;
  /** An export or an import, run in its turn (platform/signinFirst.ts). */
  bulk: boolean;
  /** A sign-in: bulk work waits for it (platform/signinFirst.ts). */
  signsIn: boolean;
  /** From the endpoint definition; null for a route not yet declared as an endpoint. */
  summary: string | null;
  output: z.ZodType | FileAnswer | null;
}

const catalogs = new WeakMap<FastifyInstance, CatalogEntry[]>();

/** Every route registered on an app through route(), in registration order. */
export function routeCatalog(app: FastifyInstance): readonly CatalogEntry[] {
  return catalogs.get(app) ?? [];
}

const SCOPES: readonly Scope[] = ['iso', 'staffOnly', 'platform', 'publicToken'];

const nothing = { safeParse: (v: unknown) => nothingParse(v) } as unknown as z.ZodType<Record<string, never>>;

function nothingParse(value: unknown) {
  const keys = value && typeof value === 'object' ? Object.keys(value) : [];
  if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value)))
    return {
      success: false as const,
      error: { issues: [{ path: [], message: 'This call takes no input' }] },
    };
  if (keys.length > 0)
    return {
      success: false as const,
      error: { issues: [{ path: [], message: `Unrecognized field: ${keys.join(', ')}` }] },
    };
  return { success: true as const, data: {} };
}

export function readableIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/**
 * Control characters other than tab, line feed and carriage return are never meaningful in PayDesk's text, and
 * PostgreSQL cannot store NUL at all: they are refused in any string of any input, keys included, before a
 * schema sees them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function findControlCharacter(value: unknown, path: string[] = [], depth = 0): string | null {
  if (depth > 64) return path.join('.') || 'the request';
  if (typeof value === 'string') return CONTROL.test(value) ? path.join('.') || 'the request' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL.test(key)) return [...path, '(a field name)'].join('.');
    const found = findControlCharacter(item, [...path, key], depth + 1);
    if (found !== null) return found;
  }
  return null;
}

function checkSpec(spec: {
  url: string | readonly string[];
  access: Access;
  scope: Scope;
  prepare?: unknown;
  ahead?: unknown;
}) {
  const name = String(spec.url);
  // Started before the session is known: nothing a caller's permission would guard.
  if (spec.ahead && spec.access !== 'public')
    throw new Error(`Route ${name}: only a public route may start work ahead of its transaction`);
  // The work before the transaction runs as the server's role, in no ISO's scope: for internal staff only.
  if (spec.prepare && spec.scope !== 'staffOnly')
    throw new Error(`Route ${name}: only a 'staffOnly' route may prepare work before its transaction`);
  if (!SCOPES.includes(spec.scope))
    throw new Error(`Route ${name} must declare its scope (${SCOPES.join(', ')})`);
  if (spec.access === 'public' && spec.scope !== 'platform' && spec.scope !== 'publicToken')
    throw new Error(`Public route ${name} can only have scope 'platform' or 'publicToken'`);
  if (spec.scope === 'publicToken' && spec.access !== 'public')
    throw new Error(`Route ${name}: scope 'publicToken' is for routes without a session`);
}

/**
 * Declares one endpoint: its input schema, who may call it, whose data it touches and its handler. The
 * platform does the rest in this order: read an upload's body whole and bounded (platform/uploads.ts), refuse
 * control characters and validate input (400), start any work `ahead`, open the transaction, find the session (401),
 * check the permission and the scope (403), scope the transaction, run the handler, commit, then run any
 * after-commit work on the same connection.
 */
export function route<
  E extends Endpoint,
  A extends Access,
  Q extends z.ZodType = z.ZodType<Record<string, never>>,
>(app: FastifyInstance, deps: Deps, spec: EndpointRouteSpec<E, A, Q>): void;
export function route<
  S extends z.ZodType = z.ZodType<Record<string, never>>,
  A extends Access = Access,
  Q extends z.ZodType = z.ZodType<Record<string, never>>,
>(app: FastifyInstance, deps: Deps, spec: RouteSpec<S, A, Q>): void;
export function route(
  app: FastifyInstance,
  deps: Deps,
  given: RouteSpec<z.ZodType, Access, z.ZodType> | EndpointRouteSpec<Endpoint, Access, z.ZodType>,
): void {
  const spec = 'endpoint' in given ? fromEndpoint(given) : given;
  const described = 'endpoint' in given ? given.endpoint : null;
  registerRoute(app, deps, spec, described);
}

function fromEndpoint(
  given: EndpointRouteSpec<Endpoint, Access, z.ZodType>,
): RouteSpec<z.ZodType, Access, z.ZodType> {
  const { endpoint, handler, prepare, ahead, ...rest } = given;
  const output = endpoint.output;
  return {
    ...rest,
    ...(prepare ? { prepare: (ctx) => prepare(ctx as never) } : {}),
    ...(ahead ? { ahead: (ctx) => ahead(ctx as never) } : {}),
    method: endpoint.method,
    url: endpoint.path,
    ...(endpoint.input ? { input: endpoint.input } : {}),
    handler: async (ctx) => {
      const result = await handler(ctx as never);
      if (output === 'file') return result;
      if (result instanceof JsonText) return jsonBody(result, ctx.req, ctx.reply);
      const answer = output.safeParse(result);
      if (!answer.success)
        throw new Error(
          `${endpoint.path}: the answer does not fit its schema: ${readableIssues(answer.error.issues)}`,
        );
      return answer.data;
    },
  };
}

function registerRoute(
  app: FastifyInstance,
  deps: Deps,
  spec: RouteSpec<z.ZodType, Access, z.ZodType>,
  described: Endpoint | null,
): void {
  checkSpec(spec);
  const schema: z.ZodType = spec.input ?? nothing;
  const urls = typeof spec.url === 'string' ? [spec.url] : spec.url;
  const catalog = catalogs.get(app) ?? [];
  catalogs.set(app, catalog);
  const statementTimeout = String(deps.config.STATEMENT_TIMEOUT_MS);
  const limit = spec.rateLimit ?? (spec.access === 'public' ? 'publicRoute' : null);
  for (const url of urls) {
    catalog.push({
      method: spec.method,
      url,
      access: spec.access,
      scope: spec.scope,
      input: spec.input ?? null,
      query: spec.query ?? null,
      file: spec.file === true,
      bulk: spec.bulk === true,
      signsIn: spec.signsIn === true,
      summary: described?.summary ?? null,
      output: described?.output ?? null,
    });
    app.route({
      method: spec.method,
      url,
      config: {
        takesFile: spec.file === true,
        // Counted from the first hook, before the body is read or the database is touched.
        ...(limit ? { rateLimit: rateLimitOptions(limit) } : {}),
      },
      handler: async (req, reply) => {
        const file = Buffer.isBuffer(req.body) ? req.body : null;
        if (file && !spec.file) throw new AppError('bad_request', 'This call does not take a file');
        const raw = spec.method === 'GET' ? req.query : file ? {} : req.body;
        const bad = findControlCharacter(raw) ?? findControlCharacter(req.query);
        if (bad !== null)
          throw new AppError('bad_request', `${bad}: contains a control character, which is not allowed`);
        const parsed = (file ? nothing : schema).safeParse(raw ?? {});
        if (!parsed.success) throw new AppError('bad_request', readableIssues(parsed.error.issues));
        const query =
          spec.method === 'POST'
            ? (spec.query ?? nothing).safeParse(req.query ?? {})
            : { success: true as const, data: {} };
        if (!query.success) throw new AppError('bad_request', readableIssues(query.error.issues));
        spec.ahead?.({ input: parsed.data, req });
        const after: ((connection: Db) => Promise<void>)[] = [];
        /** The session's user, allowed to call the route (401, 403 otherwise); null for a public route. */
        const caller = async (trx: Db): Promise<RequestUser | null> => {
          // Bounds every statement of the request on PostgreSQL (PGlite cannot interrupt a statement; there
          // the API's input bounds keep statements short).
          await sql`select set_config('statement_timeout', ${statementTimeout}, true)`.execute(trx);
          if (spec.access === 'public') return null;
          const user = await sessionUser(trx, req, reply);
          if (!user) throw new AppError('unauthorized', 'Your session has expired. Please sign in again.');
          if (spec.access !== 'session' && !hasPermission(user, spec.access)) throw forbidden();
          // Partner staff reach business data through their ISO's scope and their own account; nothing else.
          const staffRoute =
            spec.scope === 'staffOnly' || (spec.scope === 'platform' && spec.access !== 'session');
          if (user.isoId !== null && staffRoute) throw forbidden('This is for internal staff only');
          return user;
        };
        const run = () =>
          deps.db.connection().execute(async (connection) => {
            let prepared: Prepared | null = null;
            let timeoutSet = false;
            try {
              if (spec.prepare) {
                const user = await connection.transaction().execute(caller);
                if (!user) throw new Error(`Route ${url}: prepare needs a session`);
                // Its statements run outside any transaction: bounded on the connection until the request ends.
                timeoutSet = true;
                await sql`select set_config('statement_timeout', ${statementTimeout}, false)`.execute(
                  connection,
                );
                prepared = await spec.prepare({
                  input: parsed.data,
                  query: query.data,
                  file,
                  user,
                  connection,
                });
              }
              const result = await connection.transaction().execute(async (trx) => {
                const user = await caller(trx);
                if (spec.scope === 'iso' && user) await scopeTransaction(trx, user.isoId);
                if (spec.scope === 'publicToken') await runAsPublicToken(trx);
                return spec.handler({
                  input: parsed.data,
                  query: query.data,
                  file,
                  user: user as RequestUser,
                  db: trx,
                  req,
                  reply,
                  afterCommit: (work) => {
                    after.push(work);
                  },
                  prepared,
                });
              });
              if (after.length === 0) return result;
              for (const work of after) await work(connection);
              return reply;
            } finally {
              await prepared?.release(connection);
              // The pooled connection goes back as it came.
              if (timeoutSet) await sql`reset statement_timeout`.execute(connection);
            }
          });
        if (spec.signsIn) return signingIn(run);
        return spec.bulk ? inBulkTurn(req, run) : run();
      },
    });
  }
}

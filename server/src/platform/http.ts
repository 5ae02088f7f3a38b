import { hasPermission, type Permission } from '@paydesk/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/connect';
import { AppError, forbidden } from './errors';
import type { Mailer } from './mailer';
import { scopeTransaction } from './scope';
import { type RequestUser, sessionUser } from './sessions';

/** What routes need from the running application. */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by route() for routes that declare `file`: only they read an .xlsx body. */
    takesFile?: boolean;
  }
}

export interface Deps {
  db: Db;
  mailer: Mailer;
  config: Config;
}

/** public: no session needed; session: any signed-in user; otherwise the named permission. */
export type Access = 'public' | 'session' | Permission;

export interface RouteContext<Input, A extends Access, Query = Record<string, never>> {
  input: Input;
  /** The query string of a POST route that declares `query`. */
  query: Query;
  /** The uploaded .xlsx file of a route that declares `file: true`, read whole; null when JSON was sent. */
  file: Buffer | null;
  user: A extends 'public' ? null : RequestUser;
  /** The request's transaction. Scoped to the user's ISO unless the route declares data: 'platform'. */
  db: Db;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<
  S extends z.ZodType,
  A extends Access,
  Q extends z.ZodType = z.ZodType<Record<string, never>>,
> {
  method: 'GET' | 'POST';
  url: string | readonly string[];
  access: A;
  /** Schema of the POST body or the GET query string; unknown fields are refused. Default: nothing allowed. */
  input?: S;
  /**
   * 'scoped' (default): an ISO-bound user's transaction sees only that ISO's rows.
   * 'platform': accounts and administration, which read platform tables (users, sessions) themselves.
   */
  data?: 'scoped' | 'platform';
  /** Schema of a POST route's query string. */
  query?: Q;
  /**
   * The route also takes a raw .xlsx body, read whole and bounded before the transaction opens (platform/uploads.ts);
   * otherwise `input` is the JSON body.
   */
  file?: boolean;
  handler: (ctx: RouteContext<z.output<S>, A, z.output<Q>>) => Promise<unknown>;
}

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
 * Declares one endpoint: its input schema, who may call it and its handler. The platform does the rest in
 * this order: read an upload's body whole (platform/uploads.ts), validate input (400), open the transaction, find the session (401), check the permission
 * (403), scope the transaction to the user's ISO, run the handler, commit.
 */
export function route<
  S extends z.ZodType = z.ZodType<Record<string, never>>,
  A extends Access = Access,
  Q extends z.ZodType = z.ZodType<Record<string, never>>,
>(app: FastifyInstance, deps: Deps, spec: RouteSpec<S, A, Q>): void {
  const schema: z.ZodType = spec.input ?? nothing;
  const urls = typeof spec.url === 'string' ? [spec.url] : spec.url;
  for (const url of urls) {
    app.route({
      method: spec.method,
      url,
      config: { takesFile: spec.file === true },
      handler: async (req, reply) => {
        const file = Buffer.isBuffer(req.body) ? req.body : null;
        if (file && !spec.file) throw new AppError('bad_request', 'This call does not take a file');
        const raw = spec.method === 'GET' ? req.query : file ? {} : req.body;
        const parsed = (file ? nothing : schema).safeParse(raw ?? {});
        if (!parsed.success) throw new AppError('bad_request', readableIssues(parsed.error.issues));
        const query =
          spec.method === 'POST'
            ? (spec.query ?? nothing).safeParse(req.query ?? {})
            : { success: true as const, data: {} };
        if (!query.success) throw new AppError('bad_request', readableIssues(query.error.issues));
        return deps.db.transaction().execute(async (trx) => {
          let user: RequestUser | null = null;
          if (spec.access !== 'public') {
            user = await sessionUser(trx, req, reply);
            if (!user) throw new AppError('unauthorized', 'Your session has expired. Please sign in again.');
            if (spec.access !== 'session' && !hasPermission(user, spec.access)) throw forbidden();
          }
          if (spec.data !== 'platform' && user) await scopeTransaction(trx, user.isoId);
          return spec.handler({
            input: parsed.data as z.output<S>,
            query: query.data as z.output<Q>,
            file,
            user: user as RouteContext<z.output<S>, A, z.output<Q>>['user'],
            db: trx,
            req,
            reply,
          });
        });
      },
    });
  }
}

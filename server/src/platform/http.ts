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
export interface Deps {
  db: Db;
  mailer: Mailer;
  config: Config;
}

/** public: no session needed; session: any signed-in user; otherwise the named permission. */
export type Access = 'public' | 'session' | Permission;

export interface RouteContext<Input, A extends Access> {
  input: Input;
  user: A extends 'public' ? null : RequestUser;
  /** The request's transaction. Scoped to the user's ISO unless the route declares data: 'platform'. */
  db: Db;
  req: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<S extends z.ZodType, A extends Access> {
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
  handler: (ctx: RouteContext<z.output<S>, A>) => Promise<unknown>;
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
 * this order: validate input (400), open the transaction, find the session (401), check the permission
 * (403), scope the transaction to the user's ISO, run the handler, commit.
 */
export function route<S extends z.ZodType = z.ZodType<Record<string, never>>, A extends Access = Access>(
  app: FastifyInstance,
  deps: Deps,
  spec: RouteSpec<S, A>,
): void {
  const schema: z.ZodType = spec.input ?? nothing;
  const urls = typeof spec.url === 'string' ? [spec.url] : spec.url;
  for (const url of urls) {
    app.route({
      method: spec.method,
      url,
      handler: async (req, reply) => {
        const raw = spec.method === 'GET' ? req.query : req.body;
        const parsed = schema.safeParse(raw ?? {});
        if (!parsed.success) throw new AppError('bad_request', readableIssues(parsed.error.issues));
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
            user: user as RouteContext<z.output<S>, A>['user'],
            db: trx,
            req,
            reply,
          });
        });
      },
    });
  }
}

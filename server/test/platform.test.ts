import { adminPaths, endpoint, leadsPaths } from '@paydesk/domain';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { type Deps, route, routeCatalog } from '../src/platform/http';
import { Mailer } from '../src/platform/mailer';
import { Client, type TestApp, testApp } from './helpers';
import { type Json, jsonSchema, sample } from './schemaSamples';

let t: TestApp;
let deps: Deps;
beforeAll(async () => {
  t = await testApp();
  deps = {
    db: t.db,
    mailer: new Mailer(t.jobs),
    config: loadConfig({ LOG_LEVEL: 'silent', STATEMENT_TIMEOUT_MS: '300' }),
    jobs: t.jobs,
  };
});
afterAll(async () => {
  await t?.close();
});

/** Tables with a partner_id that are not scoped by row-level security, and why. */
const UNSCOPED_WITH_PARTNER_ID: Record<string, string> = {
  // A platform table: the ISO role has no grant on it at all (hideFromIsoRole), so it needs no policy.
  users: 'platform table, revoked from the ISO role',
};

describe('the route catalog and the database agree on scoping', () => {
  it('every table with partner_id has row-level security, or is on the commented allow-list', async () => {
    const { rows } = await sql<{ table_name: string; rls: boolean; iso_can_select: boolean }>`
      select c.table_name, k.relrowsecurity as rls,
             has_table_privilege('paydesk_iso', format('%I', c.table_name), 'select') as iso_can_select
      from information_schema.columns c
      join pg_class k on k.relname = c.table_name and k.relnamespace = 'public'::regnamespace and k.relkind = 'r'
      where c.table_schema = 'public' and c.column_name = 'partner_id'
      order by 1`.execute(t.db);
    expect(rows.length).toBeGreaterThan(5);
    const unscoped = rows.filter((r) => !r.rls).map((r) => r.table_name);
    expect(unscoped).toEqual(Object.keys(UNSCOPED_WITH_PARTNER_ID));
    for (const table of unscoped)
      expect(rows.find((r) => r.table_name === table)?.iso_can_select).toBe(false);
  });

  it('every registered route declared its scope, and route() refuses one without', () => {
    expect(routeCatalog(t.app).every((r) => typeof r.scope === 'string')).toBe(true);
    const app = Fastify();
    expect(() =>
      route(app, deps, {
        method: 'GET',
        url: '/x',
        access: 'session',
        handler: async () => ({}),
      } as unknown as Parameters<typeof route>[2]),
    ).toThrow(/must declare its scope/);
    expect(() =>
      route(app, deps, {
        method: 'GET',
        url: '/y',
        access: 'public',
        scope: 'iso',
        handler: async () => ({}),
      }),
    ).toThrow(/Public route/);
    // Work started before the session is known is a public route's only.
    expect(() =>
      route(app, deps, {
        method: 'POST',
        url: '/z',
        access: 'session',
        scope: 'platform',
        ahead: () => undefined,
        handler: async () => ({}),
      }),
    ).toThrow(/only a public route may start work ahead/);
  });

  it('every export, import and billing run takes its turn as bulk work, and sign-in goes before it', () => {
    const catalog = routeCatalog(t.app);
    // Neither is bulk work: one stored attachment, one lead's document (a few megabytes, nothing staged).
    const notBulk = new Set<string>([adminPaths.outboxAttachment, leadsPaths.uploadDocument]);
    const heavy = catalog.filter((r) => (r.output === 'file' || r.file) && !notBulk.has(r.url));
    expect(heavy.length).toBeGreaterThan(15);
    expect(heavy.filter((r) => !r.bulk).map((r) => r.url)).toEqual([]);
    // Nothing else waits for a turn: a dashboard call must not queue behind an export.
    expect(catalog.filter((r) => r.bulk && !heavy.includes(r)).map((r) => r.url)).toEqual([]);
    expect(catalog.filter((r) => r.signsIn).map((r) => r.url)).toEqual(['/api/app/account/signin']);
  });

  it('partner staff are refused every staff-only route of the catalog, before its input is even read', async () => {
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    const staffOnly = routeCatalog(t.app).filter((r) => r.scope === 'staffOnly');
    expect(staffOnly.length).toBeGreaterThan(8);
    for (const r of staffOnly) {
      // A valid input, so the answer is about who asks, not about what was sent.
      const body = sample(jsonSchema(r.input)) as Record<string, Json>;
      const query = new URLSearchParams(
        Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const asked = sample(jsonSchema(r.query)) as Record<string, Json>;
      const postQuery = new URLSearchParams(
        Object.entries(asked).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const res =
        r.method === 'GET'
          ? await partner.get(`${r.url}?${query}`)
          : await partner.post(`${r.url}?${postQuery}`, body);
      expect(res.statusCode, `${r.method} ${r.url} ${res.body}`).toBe(403);
    }
  });

  it('a public-token route runs as a role that cannot read business or platform tables', async () => {
    const app = Fastify();
    const tables = ['merchants', 'partners', 'residuals', 'users', 'sessions', 'audit_log'] as const;
    route(app, deps, {
      method: 'GET',
      url: '/probe',
      access: 'public',
      scope: 'publicToken',
      input: z.strictObject({ table: z.enum(tables) }),
      // A refused statement aborts the transaction, which then ends without changing anything.
      handler: ({ input, db }) =>
        sql`select count(*) from ${sql.table(input.table)}`
          .execute(db)
          .then(() => ({ read: true }))
          .catch((err: { code?: string }) => ({ read: false, code: err.code })),
    });
    for (const table of tables) {
      const res = await app.inject({ method: 'GET', url: `/probe?table=${table}` });
      expect(res.json(), table).toEqual({ read: false, code: '42501' });
    }
  });
});

describe('the API reference', () => {
  it('documents every registered call from the endpoint definitions', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const entry of routeCatalog(t.app))
      expect(doc.paths[entry.url]?.[entry.method.toLowerCase()], entry.url).toBeDefined();
    const average = doc.paths['/api/finaverage'].post;
    expect(average.summary).toMatch(/Averages per merchant-month/);
    expect(average['x-scope']).toBe('iso');
    expect(average.responses[200].content['application/json'].schema.properties.output.type).toBe('array');
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('/api/finaverage');
  });

  it('sends only the fields an endpoint declares, and refuses an answer that does not fit', async () => {
    const app = Fastify({ logger: false });
    app.setErrorHandler((_err, _req, reply) => reply.code(500).send({ success: false }));
    const declared = endpoint({
      method: 'GET',
      path: '/leaky',
      summary: 'test',
      input: z.strictObject({ fit: z.enum(['yes', 'no']) }),
      output: z.object({ name: z.string() }),
    });
    route(app, deps, {
      endpoint: declared,
      access: 'public',
      scope: 'platform',
      handler: async ({ input }) =>
        (input.fit === 'yes' ? { name: 'Summit', passwordHash: 'secret' } : { name: 42 }) as unknown as {
          name: string;
        },
    });
    const fits = await app.inject({ method: 'GET', url: '/leaky?fit=yes' });
    expect(fits.json()).toEqual({ name: 'Summit' });
    expect((await app.inject({ method: 'GET', url: '/leaky?fit=no' })).statusCode).toBe(500);
  });
});

describe('HTTP behaviour of the platform', () => {
  it('refuses a text/plain body with 415 before any route runs', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/app/account/signin',
      headers: { 'content-type': 'text/plain' },
      payload: '{"email":"admin@paydesk.local","password":"x"}',
    });
    expect(res.statusCode).toBe(415);
  });

  it('marks every JSON answer no-store', async () => {
    const client = new Client(t.app);
    await client.signin('admin@paydesk.local');
    for (const res of [
      await client.post('/api/app/account/validateUser'),
      await client.get('/api/app/users'),
      await t.app.inject({ method: 'GET', url: '/api/nothing' }),
    ]) {
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('serves the app, not an error, at the root address', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect([200, 503]).toContain(res.statusCode);
    expect(res.headers['content-type']).toMatch(/text\/(html|plain)/);
  });

  it('work after the commit leaves the database free for other requests', async () => {
    const app = await buildApp(deps, { logger: false });
    let releaseSlowClient!: () => void;
    const slowClient = new Promise<void>((resolve) => {
      releaseSlowClient = resolve;
    });
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => {
      streaming = resolve;
    });
    route(app, deps, {
      method: 'GET',
      url: '/slow-stream',
      access: 'public',
      scope: 'platform',
      handler: async ({ afterCommit, reply }) => {
        afterCommit(async (connection) => {
          await sql`select 1`.execute(connection);
          streaming();
          await slowClient;
          await sql`select 1`.execute(connection);
          reply.send({ done: true });
        });
      },
    });
    await app.ready();
    const slow = app.inject({ method: 'GET', url: '/slow-stream' });
    await started;
    // While the slow answer waits, another request's transaction runs to the end.
    const other = await new Client(app, '127.0.0.9').post('/api/app/account/signin', {
      email: 'admin@paydesk.local',
      password: 'wrong-Password-1!',
    });
    expect(other.statusCode).toBe(401);
    releaseSlowClient();
    expect((await slow).json()).toEqual({ done: true });
    await app.close();
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'cancels a statement that runs past the statement timeout (PostgreSQL)',
    async () => {
      const built = await buildApp(deps, { logger: false });
      route(built, deps, {
        method: 'GET',
        url: '/sleepy',
        access: 'public',
        scope: 'platform',
        handler: async ({ db }) => sql`select pg_sleep(5)`.execute(db),
      });
      const res = await built.inject({ method: 'GET', url: '/sleepy' });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/took too long/);
      await built.close();
    },
  );
});

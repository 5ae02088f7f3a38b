import { accountPaths } from '@paydesk/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { Mailer } from '../src/platform/mailer';
import { RATE_LIMITS } from '../src/platform/rateLimits';
import { addUser, Client, DEMO_PASSWORD, type TestApp, testApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ rateLimits: 'on' });
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Each test plays from addresses of its own, so one test's counts never reach another's. */
let nextAddress = 1;
const freshAddress = () => `10.20.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

/** The refusal every limit answers: the app's error shape, a wait in words that matches Retry-After. */
function expectRefused(res: LightMyRequestResponse, counted: 'attempts' | 'requests') {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const unit = retryAfter === 1 ? 'second' : 'seconds';
  expect(res.json()).toEqual({
    success: false,
    message: `Too many ${counted} from your address. Try again in ${retryAfter} ${unit}.`,
  });
}

const auditCount = async (subject: string) =>
  Number(
    (
      await t.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('subject', '=', subject)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('sign-in', () => {
  it('is refused past its limit, the right password too, without touching the lockout or the audit log', async () => {
    const email = 'hammered@paydesk.local';
    await addUser(t.db, email, 'sales');
    const client = new Client(t.app, freshAddress());
    const { max } = RATE_LIMITS.signin;
    // Within the limit every answer is the sign-in's own: successes and failures alike count.
    for (let i = 1; i <= max; i++) {
      const password = i % 2 === 0 ? DEMO_PASSWORD : 'Wrong-Password-1!';
      const res = await client.post(accountPaths.signin, { email, password });
      expect(res.statusCode).toBe(i % 2 === 0 ? 200 : 401);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(max - i));
    }
    const audited = await auditCount(email);
    expect(audited).toBe(max);
    const sessions = await t.db.selectFrom('sessions').select('token_hash').execute();

    const right = await client.post(accountPaths.signin, { email, password: DEMO_PASSWORD });
    expectRefused(right, 'attempts');
    expect(right.cookies.find((c) => c.name === 'login')).toBeUndefined();
    for (let i = 0; i < 5; i++) {
      const wrong = await client.post(accountPaths.signin, { email, password: 'Wrong-Password-1!' });
      expectRefused(wrong, 'attempts');
    }

    // The refused requests never reached the handler: no audit entry, no failure counted, no lock, no session,
    // and the address's database throttle counted nothing either.
    expect(await auditCount(email)).toBe(audited);
    const user = await t.db
      .selectFrom('users')
      .select(['failed_signins', 'locked_until'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ failed_signins: 0, locked_until: null });
    expect(await t.db.selectFrom('sessions').select('token_hash').execute()).toHaveLength(sessions.length);
  });

  it('counts each client address on its own', async () => {
    const hammering = new Client(t.app, freshAddress());
    for (let i = 0; i < RATE_LIMITS.signin.max; i++)
      await hammering.post(accountPaths.signin, { email: 'nobody@paydesk.local', password: 'x' });
    expectRefused(
      await hammering.post(accountPaths.signin, { email: 'sales@paydesk.local', password: DEMO_PASSWORD }),
      'attempts',
    );
    const colleague = new Client(t.app, freshAddress());
    await colleague.signin('sales@paydesk.local');
  });

  it('counts an IPv6 client per /64, what one subscriber holds', async () => {
    for (let i = 0; i < RATE_LIMITS.signin.max; i++) {
      const res = await new Client(t.app, `2001:db8:5:7::${(i + 1).toString(16)}`).post(accountPaths.signin, {
        email: `ipv6-${i}@paydesk.local`,
        password: 'x',
      });
      expect(res.statusCode).toBe(401);
    }
    const sameNetwork = new Client(t.app, '2001:db8:5:7:ffff::1');
    expectRefused(
      await sameNetwork.post(accountPaths.signin, { email: 'a@b.co', password: 'x' }),
      'attempts',
    );
    await new Client(t.app, '2001:db8:5:8::1').signin('sales@paydesk.local');
  });
});

describe('the other account forms', () => {
  it('limits forgot-password, and a refused request sends no e-mail', async () => {
    const client = new Client(t.app, freshAddress());
    const outbox = async () => (await t.db.selectFrom('outbox').select('id').execute()).length;
    for (let i = 0; i < RATE_LIMITS.forgotPassword.max; i++) {
      const res = await client.post(accountPaths.forgotPassword, { email: 'finance@paydesk.local' });
      expect(res.statusCode).toBe(200);
    }
    const mails = await outbox();
    expectRefused(
      await client.post(accountPaths.forgotPassword, { email: 'finance@paydesk.local' }),
      'attempts',
    );
    expect(await outbox()).toBe(mails);
  });

  it('limits reset-password', async () => {
    const client = new Client(t.app, freshAddress());
    const body = { code: 'not-a-real-code', password: 'New-Password-2026!' };
    for (let i = 0; i < RATE_LIMITS.resetPassword.max; i++)
      expect((await client.post(accountPaths.resetPassword, body)).statusCode).toBe(400);
    expectRefused(await client.post(accountPaths.resetPassword, body), 'attempts');
  });

  it('limits registration, both of its paths counting together', async () => {
    const admin = new Client(t.app, freshAddress());
    await admin.signin('admin@paydesk.local');
    const register = (i: number) =>
      admin.post(i % 2 === 0 ? accountPaths.register : accountPaths.registerLegacy, {
        email: `registered-${i}@paydesk.local`,
        department: 'sales',
        password: 'Welcome-2026!',
        confirmpassword: 'Welcome-2026!',
      });
    for (let i = 0; i < RATE_LIMITS.registration.max; i++) expect((await register(i)).statusCode).toBe(200);
    const refused = await register(RATE_LIMITS.registration.max);
    expectRefused(refused, 'attempts');
    const created = await t.db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', 'registered-%')
      .execute();
    expect(created).toHaveLength(RATE_LIMITS.registration.max);
  });
});

describe('public routes and unknown paths', () => {
  it('limits a route without a session, and the session probe more loosely', async () => {
    const client = new Client(t.app, freshAddress());
    for (let i = 0; i < RATE_LIMITS.publicRoute.max; i++)
      expect((await client.post(accountPaths.signout)).statusCode).toBe(200);
    expectRefused(await client.post(accountPaths.signout), 'requests');
    // The probe has its own allowance, and the public limit spent above does not touch it.
    expect(RATE_LIMITS.sessionProbe.max).toBeGreaterThan(RATE_LIMITS.publicRoute.max);
    for (let i = 0; i < RATE_LIMITS.sessionProbe.max; i++)
      expect((await client.post(accountPaths.session)).statusCode).toBe(200);
    expectRefused(await client.post(accountPaths.session), 'requests');
    // A route with a session has no per-address limit.
    const other = new Client(t.app, freshAddress());
    await other.signin('sales@paydesk.local');
    for (let i = 0; i < 3; i++) expect((await other.post(accountPaths.validateUser)).statusCode).toBe(200);
    expect((await other.post(accountPaths.validateUser)).headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('gives every route without a session a limit', async () => {
    const client = new Client(t.app, freshAddress());
    for (const url of ['/api/openapi.json', accountPaths.signout, accountPaths.checkResetPassword]) {
      const res = url.endsWith('.json') ? await client.get(url) : await client.post(url, { code: 'x' });
      expect(res.headers['x-ratelimit-limit'], url).toBeDefined();
    }
  });

  it('refuses many unknown API paths, never the pages of the app, and the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = new Client(t.app, freshAddress());
    const { max, windowMs } = RATE_LIMITS.unknownPath;
    for (let i = 0; i < max; i++) {
      const res =
        i % 2 === 0 ? await client.get(`/api/probe-${i}`) : await client.post(`/api/probe-${i}`, {});
      expect(res.statusCode).toBe(404);
    }
    const refused = await client.get('/api/wp-admin');
    expectRefused(refused, 'requests');
    expect(refused.headers['retry-after']).toBe(String(windowMs / 1000));
    // The app's own pages come through the same handler and are not counted.
    for (let i = 0; i < 3; i++) expect((await client.get('/sales')).statusCode).not.toBe(429);

    vi.setSystemTime(Date.now() + windowMs - 1);
    const lastMoment = await client.get('/api/probe');
    expectRefused(lastMoment, 'requests');
    expect(lastMoment.json().message).toBe('Too many requests from your address. Try again in 1 second.');
    vi.setSystemTime(Date.now() + 1);
    expect((await client.get('/api/probe')).statusCode).toBe(404);
  });
});

describe('configuration', () => {
  const otherApp = async (env: Record<string, string>): Promise<FastifyInstance> => {
    const config = loadConfig({ APP_URL: 'http://paydesk.test', LOG_LEVEL: 'silent', ...env });
    const app = await buildApp(
      { db: t.db, config, mailer: new Mailer(t.jobs), jobs: t.jobs },
      { logger: false },
    );
    await app.ready();
    return app;
  };

  it('counts the address the proxy names with TRUST_PROXY=true', async () => {
    const app = await otherApp({ TRUST_PROXY: 'true' });
    const from = (client: string) =>
      app.inject({
        method: 'POST',
        url: accountPaths.forgotPassword,
        remoteAddress: '127.0.0.1',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
        payload: JSON.stringify({ email: 'nobody@paydesk.local' }),
      });
    for (let i = 0; i < RATE_LIMITS.forgotPassword.max; i++)
      expect((await from('198.51.100.7')).statusCode).toBe(200);
    expectRefused(await from('198.51.100.7'), 'attempts');
    expect((await from('198.51.100.8')).statusCode).toBe(200);
    await app.close();
  });

  it('RATE_LIMITS=off lifts every limit', async () => {
    const app = await otherApp({ RATE_LIMITS: 'off' });
    for (let i = 0; i <= RATE_LIMITS.unknownPath.max; i++) {
      const res = await app.inject({ method: 'GET', url: `/api/probe-${i}`, remoteAddress: '10.99.0.1' });
      expect(res.statusCode).toBe(404);
    }
    for (let i = 0; i <= RATE_LIMITS.resetPassword.max; i++) {
      const res = await new Client(app, '10.99.0.1').post(accountPaths.resetPassword, {
        code: 'x',
        password: 'New-Password-2026!',
      });
      expect(res.statusCode).toBe(400);
    }
    await app.close();
  });

  it('refuses a RATE_LIMITS value it does not know', () => {
    expect(() => loadConfig({ RATE_LIMITS: 'maybe' })).toThrow(/RATE_LIMITS/);
  });
});

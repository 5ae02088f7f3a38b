import * as argon2 from '@node-rs/argon2';
import { CLIENT_SIGNIN_LIMIT, FORGOT_PASSWORD_MESSAGE } from '@paydesk/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checksStartedAhead } from '../src/areas/accounts/passwordAhead';
import { isEmbedded } from '../src/db/pglite-dialect';
import { hashPassword, needsRehash } from '../src/platform/crypto';
import { holdTransaction } from './deferred';
import { addUser, Client, DEMO_PASSWORD, type TestApp, testApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

const signinUrl = '/api/app/account/signin';

async function latestResetCode(email: string): Promise<string> {
  const mail = await t.db
    .selectFrom('outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const match = /reset\?code=([A-Za-z0-9_-]+)/.exec(mail.text_body);
  if (!match?.[1]) throw new Error('no reset link in the mail');
  return match[1];
}

describe('sign-in', () => {
  it('signs in with the e-mail in any case and sets the three cookies', async () => {
    const client = new Client(t.app);
    const res = await client.post(signinUrl, { email: 'Sales@PayDesk.Local', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, department: 'sales', message: 'Signed in' });
    expect(body.user).toEqual({
      email: 'sales@paydesk.local',
      department: 'sales',
      capabilities: ['leads'],
      iso: null,
    });
    const login = res.cookies.find((c) => c.name === 'login');
    expect(login?.httpOnly).toBe(true);
    expect(login?.sameSite).toBe('Lax');
    expect(login?.maxAge).toBe(3600);
    expect(body.token).not.toBe(login?.value);
    const email = res.cookies.find((c) => c.name === 'email');
    expect(email?.value).toBe('sales@paydesk.local');
    expect(email?.httpOnly).toBeFalsy();
    expect(res.cookies.find((c) => c.name === 'dept')?.value).toBe('sales');
    const validate = await client.post('/api/app/account/validateUser');
    expect(validate.statusCode).toBe(200);
    expect(validate.json().user.email).toBe('sales@paydesk.local');
  });

  it('stores the session on the server, not in the cookie', async () => {
    const client = new Client(t.app);
    await client.signin('finance@paydesk.local');
    const token = client.cookies.get('login') ?? '';
    const rows = await t.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('answers 401 with the same message for a wrong password and an unknown e-mail', async () => {
    const client = new Client(t.app);
    const wrong = await client.post(signinUrl, { email: 'finance@paydesk.local', password: 'Wrong-pass-1!' });
    const unknown = await client.post(signinUrl, {
      email: 'nobody@paydesk.local',
      password: 'Wrong-pass-1!',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      success: false,
      token: '',
      department: '',
      message: 'Invalid email or password',
    });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.cookies).toHaveLength(0);
  });

  it('locks the account for 30 minutes after 10 failed sign-ins, even for the right password', async () => {
    await addUser(t.db, 'lockme@paydesk.local', 'sales');
    const client = new Client(t.app, '127.0.0.2');
    for (let i = 1; i <= 9; i++) {
      const res = await client.post(signinUrl, {
        email: 'lockme@paydesk.local',
        password: `Wrong-${i}-pass!`,
      });
      expect(res.statusCode).toBe(401);
    }
    const tenth = await client.post(signinUrl, { email: 'lockme@paydesk.local', password: 'Wrong-10-pass!' });
    expect(tenth.statusCode).toBe(423);
    expect(tenth.json().message).toMatch(/locked after 10 failed sign-ins.*30 minutes/);
    const right = await client.post(signinUrl, { email: 'lockme@paydesk.local', password: DEMO_PASSWORD });
    expect(right.statusCode).toBe(423);
    expect(right.json().message).toMatch(/locked/);
    const user = await t.db
      .selectFrom('users')
      .select('locked_until')
      .where('email', '=', 'lockme@paydesk.local')
      .executeTakeFirstOrThrow();
    const minutes = (new Date(user.locked_until as Date).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    // Once the lock has passed, the right password works again.
    await t.db
      .updateTable('users')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('email', '=', 'lockme@paydesk.local')
      .execute();
    expect(
      (await client.post(signinUrl, { email: 'lockme@paydesk.local', password: DEMO_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('answers an address without an account exactly as a real one, lock included', async () => {
    await addUser(t.db, 'real.lock@paydesk.local', 'sales');
    const answers = async (email: string, from: string) => {
      const client = new Client(t.app, from);
      const out: { status: number; body: unknown }[] = [];
      for (let i = 1; i <= 11; i++) {
        const res = await client.post(signinUrl, { email, password: `Wrong-${i}-pass!` });
        out.push({ status: res.statusCode, body: res.json() });
      }
      return out;
    };
    const real = await answers('real.lock@paydesk.local', '127.0.0.3');
    const ghost = await answers('ghost.lock@paydesk.local', '127.0.0.4');
    expect(real.map((a) => a.status)).toEqual([...Array(9).fill(401), 423, 423]);
    expect(ghost).toEqual(real);
  });

  it('limits failed sign-ins per client address, without locking out the owner elsewhere', async () => {
    const stranger = new Client(t.app, '127.0.0.5');
    for (let i = 1; i <= CLIENT_SIGNIN_LIMIT; i++) {
      const res = await stranger.post(signinUrl, {
        email: `guess${i}@paydesk.local`,
        password: 'Wrong-pass-1!',
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await stranger.post(signinUrl, { email: 'sales@paydesk.local', password: DEMO_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-ins from your network/);
    // The stranger never reached the account: its owner signs in from their own address.
    const owner = new Client(t.app, '127.0.0.6');
    expect(
      (await owner.post(signinUrl, { email: 'sales@paydesk.local', password: DEMO_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('a success clears the failure count', async () => {
    await addUser(t.db, 'count@paydesk.local', 'sales');
    const client = new Client(t.app, '127.0.0.7');
    for (let i = 0; i < 9; i++)
      await client.post(signinUrl, { email: 'count@paydesk.local', password: 'Nope-nope-1!' });
    expect(
      (await client.post(signinUrl, { email: 'count@paydesk.local', password: DEMO_PASSWORD })).statusCode,
    ).toBe(200);
    const again = await client.post(signinUrl, { email: 'count@paydesk.local', password: 'Nope-nope-1!' });
    expect(again.statusCode).toBe(401);
  });

  it('refuses a deactivated user', async () => {
    await addUser(t.db, 'gone@paydesk.local', 'finance');
    await t.db
      .updateTable('users')
      .set({ active: false })
      .where('email', '=', 'gone@paydesk.local')
      .execute();
    const res = await new Client(t.app).post(signinUrl, {
      email: 'gone@paydesk.local',
      password: DEMO_PASSWORD,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/disabled/);
  });

  it('validates the body: 400 with a readable message, unknown fields refused', async () => {
    const client = new Client(t.app);
    const missing = await client.post(signinUrl, { email: 'sales@paydesk.local' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ success: false, message: 'password: Password is required' });
    const extra = await client.post(signinUrl, { email: 'sales@paydesk.local', password: 'x', admin: true });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toMatch(/admin/);
    const bad = await client.post(signinUrl, { email: 'not-an-email', password: 'x' });
    expect(bad.json().message).toBe('email: Enter a valid e-mail address');
  });

  it('records sign-ins, successes and failures, with who and from where', async () => {
    const rows = await t.db
      .selectFrom('audit_log')
      .select(['action', 'subject', 'ip', 'details'])
      .where('subject', '=', 'finance@paydesk.local')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['signin.success', 'signin.failure']));
    expect(rows.every((r) => r.ip === '127.0.0.1')).toBe(true);
  });
});

describe('a password hash made at an earlier cost', () => {
  // The cost every hash had before (OWASP's 19 MiB × 2), made with the library itself, not hashPassword.
  const OLD_COST = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
  const email = 'old-cost@paydesk.local';
  const stored = () =>
    t.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'password_changed_at'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();

  it('is made again at the current cost when its owner signs in, and nothing else changes', async () => {
    await addUser(t.db, email, 'sales');
    const oldHash = await argon2.hash(DEMO_PASSWORD, OLD_COST);
    expect(oldHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const { id } = await stored();
    await t.db.updateTable('users').set({ password_hash: oldHash }).where('id', '=', id).execute();
    const before = await stored();
    const history = async () =>
      (await t.db.selectFrom('password_history').select('password_hash').where('user_id', '=', id).execute())
        .length;
    const historyBefore = await history();

    const first = await new Client(t.app).post(signinUrl, { email, password: DEMO_PASSWORD });
    expect(first.statusCode).toBe(200);
    const after = await stored();
    expect(after.password_hash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect(await argon2.verify(after.password_hash, DEMO_PASSWORD)).toBe(true);
    expect(await argon2.verify(after.password_hash, 'Not-The-Pass-1!')).toBe(false);
    // The same password: its history and the date it was set stay as they were.
    expect(await history()).toBe(historyBefore);
    expect(after.password_changed_at).toEqual(before.password_changed_at);
    const audits = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('subject', '=', email)
      .where('action', '=', 'signin.success')
      .execute();
    expect(audits.map((a) => a.details.rehashed ?? false)).toEqual([true]);

    // The next sign-in finds the current cost and writes nothing.
    const second = await new Client(t.app).post(signinUrl, { email, password: DEMO_PASSWORD });
    expect(second.statusCode).toBe(200);
    expect((await stored()).password_hash).toBe(after.password_hash);
  });

  it('is left alone when the password given does not match', async () => {
    const other = 'old-cost-wrong@paydesk.local';
    await addUser(t.db, other, 'sales');
    const oldHash = await argon2.hash(DEMO_PASSWORD, OLD_COST);
    await t.db.updateTable('users').set({ password_hash: oldHash }).where('email', '=', other).execute();
    const wrong = await new Client(t.app).post(signinUrl, { email: other, password: 'Not-The-Pass-1!' });
    expect(wrong.statusCode).toBe(401);
    const row = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', other)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBe(oldHash);
  });

  it('needsRehash: another cost, another variant or not argon2 at all', async () => {
    expect(needsRehash(await hashPassword('Some-Pass-2026!'))).toBe(false);
    expect(needsRehash(await argon2.hash('x', OLD_COST))).toBe(true);
    expect(needsRehash(await argon2.hash('x', { memoryCost: 7_168, timeCost: 5, parallelism: 2 }))).toBe(
      true,
    );
    // argon2i (algorithm 1), at the current cost.
    expect(
      needsRehash(await argon2.hash('x', { memoryCost: 7_168, timeCost: 5, parallelism: 1, algorithm: 1 })),
    ).toBe(true);
    expect(needsRehash('$2b$12$abcdefghijklmnopqrstuv')).toBe(true);
    expect(needsRehash('')).toBe(true);
  });
});

describe('the password check started ahead (areas/accounts/passwordAhead.ts)', () => {
  const failedSignins = async (email: string) =>
    (
      await t.db
        .selectFrom('users')
        .select('failed_signins')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).failed_signins;

  // On PostgreSQL each request has a connection of the pool: there is no single connection to wait for.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'checks an address tried before while the sign-in waits for the embedded database',
    async () => {
      expect(isEmbedded(t.db)).toBe(true);
      await addUser(t.db, 'ahead@paydesk.local', 'sales');
      const client = new Client(t.app);
      await client.signin('ahead@paydesk.local');
      // Someone else's transaction holds the only connection until it is released.
      const other = await holdTransaction(t.db);
      const before = checksStartedAhead();
      const signin = client.post(signinUrl, { email: 'ahead@paydesk.local', password: DEMO_PASSWORD });
      let answered = false;
      void signin.then(() => {
        answered = true;
      });
      try {
        // The check starts although the sign-in cannot open its transaction (with the check inside the
        // transaction, nothing would start until `release`).
        await vi.waitFor(() => expect(checksStartedAhead()).toBe(before + 1));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(answered).toBe(false);
      } finally {
        await other.release();
      }
      expect((await signin).statusCode).toBe(200);
    },
  );

  it('decides on the hash the transaction reads: a password changed since the last sign-in is checked again', async () => {
    await addUser(t.db, 'rehashed@paydesk.local', 'sales');
    const client = new Client(t.app);
    await client.signin('rehashed@paydesk.local');
    await t.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('Other-Pass-2026!') })
      .where('email', '=', 'rehashed@paydesk.local')
      .execute();
    const started = checksStartedAhead();
    const old = await new Client(t.app).post(signinUrl, {
      email: 'rehashed@paydesk.local',
      password: DEMO_PASSWORD,
    });
    expect(old.statusCode).toBe(401);
    // Checked early against the hash of the first sign-in (where the old password matched), then again.
    expect(checksStartedAhead()).toBe(started + 1);
    const fresh = await new Client(t.app).post(signinUrl, {
      email: 'rehashed@paydesk.local',
      password: 'Other-Pass-2026!',
    });
    expect(fresh.statusCode).toBe(200);
    expect(await failedSignins('rehashed@paydesk.local')).toBe(0);
  });

  it('counts a wrong password checked early as a failure, and answers an unknown address as before', async () => {
    await addUser(t.db, 'early-wrong@paydesk.local', 'sales');
    await new Client(t.app).signin('early-wrong@paydesk.local');
    const started = checksStartedAhead();
    const wrong = await new Client(t.app).post(signinUrl, {
      email: 'early-wrong@paydesk.local',
      password: 'Not-The-Pass-1!',
    });
    expect(wrong.statusCode).toBe(401);
    expect(checksStartedAhead()).toBe(started + 1);
    expect(await failedSignins('early-wrong@paydesk.local')).toBe(1);

    // An address without an account is remembered with the decoy's hash: its second try is checked early too,
    // exactly as an account's, and answered alike.
    const unknown = { email: 'nobody-ahead@paydesk.local', password: 'Some-Pass-2026!' };
    const first = await new Client(t.app).post(signinUrl, unknown);
    const afterFirst = checksStartedAhead();
    const second = await new Client(t.app).post(signinUrl, unknown);
    expect(checksStartedAhead()).toBe(afterFirst + 1);
    expect([first.statusCode, second.statusCode]).toEqual([401, 401]);
    expect(second.json().message).toBe(wrong.json().message);
  });
});

describe('session', () => {
  it('answers 401 without a session, with an unknown token, and with an expired one', async () => {
    const client = new Client(t.app);
    expect((await client.post('/api/app/account/validateUser')).statusCode).toBe(401);
    client.cookies.set('login', 'made-up-token');
    expect((await client.post('/api/app/account/validateUser')).statusCode).toBe(401);
    const fresh = new Client(t.app);
    await fresh.signin('sales.admin@paydesk.local');
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const res = await fresh.post('/api/app/account/validateUser');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      success: false,
      message: 'Your session has expired. Please sign in again.',
    });
  });

  it('the session probe answers 200 with or without a session, and the user when signed in', async () => {
    const client = new Client(t.app);
    const none = await client.post('/api/app/account/session');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ signedIn: false });
    client.cookies.set('login', 'made-up-token');
    expect((await client.post('/api/app/account/session')).json()).toEqual({ signedIn: false });
    const signed = new Client(t.app);
    await signed.signin('finance@paydesk.local');
    const yes = await signed.post('/api/app/account/session');
    expect(yes.statusCode).toBe(200);
    expect(yes.json()).toMatchObject({ signedIn: true, user: { email: 'finance@paydesk.local' } });
    expect(yes.json()).toEqual({
      signedIn: true,
      user: (await signed.post('/api/app/account/validateUser')).json().user,
    });
    await signed.post('/api/app/account/signout');
    expect((await signed.post('/api/app/account/session')).json()).toEqual({ signedIn: false });
    expect((await signed.post('/api/app/account/session', { extra: 1 })).statusCode).toBe(400);
  });

  it('sign-out ends the session on the server and clears the cookies', async () => {
    const client = new Client(t.app);
    await client.signin('sales@paydesk.local');
    const token = client.cookies.get('login') as string;
    const out = await client.post('/api/app/account/signout');
    expect(out.statusCode).toBe(200);
    expect(out.cookies.map((c) => c.name).sort()).toEqual(['dept', 'email', 'login']);
    expect(client.cookies.size).toBe(0);
    const replay = new Client(t.app);
    replay.cookies.set('login', token);
    expect((await replay.post('/api/app/account/validateUser')).statusCode).toBe(401);
  });
});

describe('change password', () => {
  const url = '/api/app/account/changepassword';
  it('changes the password, ends every session of the user and keeps the history rule', async () => {
    await addUser(t.db, 'changer@paydesk.local', 'sales');
    const client = new Client(t.app);
    const other = new Client(t.app);
    await client.signin('changer@paydesk.local');
    await other.signin('changer@paydesk.local');
    const res = await client.post(url, {
      email: 'changer@paydesk.local',
      oldpassword: DEMO_PASSWORD,
      password: 'Fresh-Pass-01!',
      confirmpassword: 'Fresh-Pass-01!',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    expect((await client.post('/api/app/account/validateUser')).statusCode).toBe(401);
    expect((await other.post('/api/app/account/validateUser')).statusCode).toBe(401);
    expect(
      (await new Client(t.app).post(signinUrl, { email: 'changer@paydesk.local', password: DEMO_PASSWORD }))
        .statusCode,
    ).toBe(401);

    // Passwords 2..4 then back to an old one: the last four (current included) are refused.
    let current = 'Fresh-Pass-01!';
    for (const next of ['Fresh-Pass-02!', 'Fresh-Pass-03!', 'Fresh-Pass-04!']) {
      await client.signin('changer@paydesk.local', current);
      const ok = await client.post(url, {
        email: 'changer@paydesk.local',
        oldpassword: current,
        password: next,
        confirmpassword: next,
      });
      expect(ok.statusCode).toBe(200);
      current = next;
    }
    await client.signin('changer@paydesk.local', current);
    for (const reused of ['Fresh-Pass-04!', 'Fresh-Pass-03!', 'Fresh-Pass-01!']) {
      const refused = await client.post(url, {
        email: 'changer@paydesk.local',
        oldpassword: current,
        password: reused,
        confirmpassword: reused,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('The new password must differ from your last 4 passwords');
    }
    // The demo password is now five passwords back: allowed again.
    const back = await client.post(url, {
      email: 'changer@paydesk.local',
      oldpassword: current,
      password: DEMO_PASSWORD,
      confirmpassword: DEMO_PASSWORD,
    });
    expect(back.statusCode).toBe(200);
  });

  it('refuses a weak password with a message naming what is missing', async () => {
    const client = new Client(t.app);
    await client.signin('finance.admin@paydesk.local');
    const weak = await client.post(url, {
      email: 'finance.admin@paydesk.local',
      oldpassword: DEMO_PASSWORD,
      password: 'alllowercase1',
      confirmpassword: 'alllowercase1',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Password must contain an uppercase letter and a special character');
    const short = await client.post(url, {
      email: 'finance.admin@paydesk.local',
      oldpassword: DEMO_PASSWORD,
      password: 'Ab1!',
      confirmpassword: 'Ab1!',
    });
    expect(short.json().message).toBe('Password length must be 8 characters or more');
  });

  it('refuses a wrong current password, a mismatch, another user’s e-mail and no session', async () => {
    const client = new Client(t.app);
    await client.signin('finance.admin@paydesk.local');
    const wrong = await client.post(url, {
      email: 'finance.admin@paydesk.local',
      oldpassword: 'Wrong-pass-9!',
      password: 'Brand-New-9!',
      confirmpassword: 'Brand-New-9!',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The current password is incorrect');
    const mismatch = await client.post(url, {
      email: 'finance.admin@paydesk.local',
      oldpassword: DEMO_PASSWORD,
      password: 'Brand-New-9!',
      confirmpassword: 'Brand-New-8!',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toMatch(/do not match/);
    const other = await client.post(url, {
      email: 'admin@paydesk.local',
      oldpassword: DEMO_PASSWORD,
      password: 'Brand-New-9!',
      confirmpassword: 'Brand-New-9!',
    });
    expect(other.statusCode).toBe(403);
    const anonymous = await new Client(t.app).post(url, {
      email: 'admin@paydesk.local',
      oldpassword: DEMO_PASSWORD,
      password: 'Brand-New-9!',
      confirmpassword: 'Brand-New-9!',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('forgot and reset password', () => {
  it('answers the same whether or not the address exists, and mails only real users', async () => {
    const client = new Client(t.app);
    const before = await t.db.selectFrom('outbox').select('id').execute();
    const known = await client.post('/api/app/account/forgotpassword', { email: 'sales@paydesk.local' });
    const unknown = await client.post('/api/app/account/forgotpassword', { email: 'stranger@paydesk.local' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ success: true, message: FORGOT_PASSWORD_MESSAGE });
    expect(unknown.json()).toEqual(known.json());
    const after = await t.db.selectFrom('outbox').select(['to_address', 'text_body']).execute();
    expect(after.length - before.length).toBe(1);
    expect(after.at(-1)?.to_address).toBe('sales@paydesk.local');
    expect(after.at(-1)?.text_body).toContain('http://paydesk.test/reset?code=');
  });

  it('resets with a single-use link, ends sessions and clears a lockout', async () => {
    await addUser(t.db, 'forgetful@paydesk.local', 'finance');
    const client = new Client(t.app);
    await client.signin('forgetful@paydesk.local');
    await t.db
      .updateTable('users')
      .set({ locked_until: new Date(Date.now() + 600_000) })
      .where('email', '=', 'forgetful@paydesk.local')
      .execute();
    await client.post('/api/app/account/forgotpassword', { email: 'forgetful@paydesk.local' });
    const code = await latestResetCode('forgetful@paydesk.local');
    expect((await client.post('/api/app/account/checkresetpassword', { code })).statusCode).toBe(200);
    const weak = await client.post('/api/app/account/resetpassword', { code, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Password length must be 8 characters or more');
    const reused = await client.post('/api/app/account/resetpassword', { code, password: DEMO_PASSWORD });
    expect(reused.json().message).toBe('The new password must differ from your last 4 passwords');
    const ok = await client.post('/api/app/account/resetpassword', { code, password: 'Remembered-1!' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().success).toBe(true);
    expect((await client.post('/api/app/account/validateUser')).statusCode).toBe(401);
    const again = await client.post('/api/app/account/resetpassword', { code, password: 'Remembered-2!' });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('The reset link is not valid or has expired');
    expect((await client.post('/api/app/account/checkresetpassword', { code })).statusCode).toBe(400);
    expect(
      (
        await new Client(t.app).post(signinUrl, {
          email: 'forgetful@paydesk.local',
          password: 'Remembered-1!',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses an expired link and an older link once a newer one was sent', async () => {
    await addUser(t.db, 'expiry@paydesk.local', 'finance');
    const client = new Client(t.app);
    await client.post('/api/app/account/forgotpassword', { email: 'expiry@paydesk.local' });
    const first = await latestResetCode('expiry@paydesk.local');
    await client.post('/api/app/account/forgotpassword', { email: 'expiry@paydesk.local' });
    const second = await latestResetCode('expiry@paydesk.local');
    expect((await client.post('/api/app/account/checkresetpassword', { code: first })).statusCode).toBe(400);
    expect((await client.post('/api/app/account/checkresetpassword', { code: second })).statusCode).toBe(200);
    await t.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1) })
      .execute();
    expect((await client.post('/api/app/account/checkresetpassword', { code: second })).statusCode).toBe(400);
    expect((await client.post('/api/app/account/checkresetpassword', { code: 'tiny' })).statusCode).toBe(400);
  });
});

describe('register', () => {
  const body = {
    email: 'New.Person@PayDesk.local',
    department: 'finance',
    password: 'Welcome-2026!',
    confirmpassword: 'Welcome-2026!',
  };

  it('lets an admin register a user on both paths', async () => {
    const admin = new Client(t.app);
    await admin.signin('admin@paydesk.local');
    const res = await admin.post('/api/app/account/register', body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'User new.person@paydesk.local registered' });
    const legacy = await admin.post('/api/register', { ...body, email: 'legacy@paydesk.local' });
    expect(legacy.statusCode).toBe(200);
    await new Client(t.app).signin('new.person@paydesk.local', 'Welcome-2026!');
    const dup = await admin.post('/api/app/account/register', body);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A user with this email already exists');
  });

  it('refuses every other department with 403 and anonymous callers with 401', async () => {
    for (const email of [
      'sales.admin@paydesk.local',
      'finance.admin@paydesk.local',
      'sales@paydesk.local',
      'finance@paydesk.local',
    ]) {
      const client = new Client(t.app);
      await client.signin(email);
      const res = await client.post('/api/app/account/register', { ...body, email: 'sneaky@paydesk.local' });
      expect(res.statusCode, email).toBe(403);
      const legacy = await client.post('/api/register', { ...body, email: 'sneaky@paydesk.local' });
      expect(legacy.statusCode, email).toBe(403);
    }
    expect((await new Client(t.app).post('/api/register', body)).statusCode).toBe(401);
    expect(
      await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'sneaky@paydesk.local')
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('validates department, the password rule and the confirmation', async () => {
    const admin = new Client(t.app);
    await admin.signin('admin@paydesk.local');
    const dept = await admin.post('/api/app/account/register', {
      ...body,
      email: 'x1@paydesk.local',
      department: 'root',
    });
    expect(dept.statusCode).toBe(400);
    expect(dept.json().message).toMatch(
      /Department must be one of admin, sales_admin, finance_admin, sales, finance/,
    );
    const weak = await admin.post('/api/app/account/register', {
      ...body,
      email: 'x2@paydesk.local',
      password: 'password',
      confirmpassword: 'password',
    });
    expect(weak.json().message).toBe(
      'Password must contain an uppercase letter, a number and a special character',
    );
    const mismatch = await admin.post('/api/app/account/register', {
      ...body,
      email: 'x3@paydesk.local',
      confirmpassword: 'Other-2026!',
    });
    expect(mismatch.statusCode).toBe(400);
    const stored = await t.db
      .selectFrom('users')
      .select('email')
      .where('email', 'in', ['x1@paydesk.local', 'x2@paydesk.local', 'x3@paydesk.local'])
      .execute();
    expect(stored).toEqual([]);
  });
});

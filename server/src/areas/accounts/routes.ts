import {
  accountEndpoints,
  FORGOT_PASSWORD_MESSAGE,
  LOCKOUT_MS,
  passwordProblem,
  RESET_LINK_TTL_MS,
  SESSION_COOKIE,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { audit } from '../../platform/audit';
import { hashPassword, needsRehash, randomToken, sha256, verifyPassword } from '../../platform/crypto';
import { AppError, badRequest, forbidden } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import {
  clearSessionCookies,
  createSession,
  endAllSessions,
  endSession,
  sessionUser,
  setSessionCookies,
  toSessionUser,
} from '../../platform/sessions';
import { checkPasswordAhead, passwordMatches, rememberHash } from './passwordAhead';
import { capabilitiesOf, createUser, findUserByEmail, isoNameOf } from './queries';
import {
  checkSignin,
  checkUnknownSignin,
  clientThrottle,
  clientThrottleMessage,
  INACTIVE_ACCOUNT,
  lockMessage,
  recordClientFailure,
  replacePassword,
  WRONG_CREDENTIALS,
} from './service';

const INVALID_RESET_LINK = 'The reset link is not valid or has expired';

/** Spec document 1 §7 "Account" and document 2 §7 "Register". */
export function accountRoutes(app: FastifyInstance, deps: Deps) {
  route(app, deps, {
    endpoint: accountEndpoints.signin,
    access: 'public',
    scope: 'platform',
    rateLimit: 'signin',
    signsIn: true,
    // The password's check starts now if the address was tried before, while the sign-in waits for a connection.
    ahead: ({ input, req }) => checkPasswordAhead(req, input.email, input.password),
    handler: async ({ input, db, req, reply }) => {
      const refuse = (status: number, message: string) => {
        reply.code(status);
        return { success: false, token: '', department: '' as const, message };
      };
      const throttled = await clientThrottle(db, req.ip);
      if (throttled !== null) {
        await audit(db, {
          actor: null,
          action: 'signin.throttled',
          subject: input.email,
          ip: req.ip,
          details: { minutesLeft: throttled },
        });
        return refuse(429, clientThrottleMessage(throttled));
      }
      const user = await findUserByEmail(db, input.email);
      const matches = (hash: string) => passwordMatches(req, input.email, hash, input.password);
      const outcome = user
        ? await checkSignin(db, user, matches)
        : await checkUnknownSignin(db, input.email, matches);
      if (!user || outcome.kind !== 'ok') {
        await recordClientFailure(db, req.ip);
        const reason = !user ? 'unknown email' : outcome.kind === 'wrong' ? 'wrong password' : outcome.kind;
        const lockedNow = outcome.kind === 'wrong' && outcome.lockedNow;
        await audit(db, {
          actor: user ? { id: user.id, email: user.email } : null,
          action: lockedNow ? 'signin.locked' : 'signin.failure',
          subject: input.email,
          ip: req.ip,
          details: { reason },
        });
        // An unknown address and a real account answer alike: 401, then 423 once locked.
        if (outcome.kind === 'locked') return refuse(423, lockMessage(outcome.minutesLeft));
        if (lockedNow) return refuse(423, lockMessage(LOCKOUT_MS / 60_000));
        if (outcome.kind === 'inactive') return refuse(403, INACTIVE_ACCOUNT);
        return refuse(401, WRONG_CREDENTIALS);
      }
      const actor = { id: user.id, email: user.email };
      // A hash made at an earlier cost (platform/crypto.ts) is made again now that the password is known to match:
      // the same password, so neither its history nor the date it was set changes.
      const rehashed = needsRehash(user.password_hash);
      if (rehashed) {
        const fresh = await hashPassword(input.password);
        await db
          .updateTable('users')
          .set({ password_hash: fresh })
          .where('id', '=', user.id)
          .where('password_hash', '=', user.password_hash)
          .execute();
        rememberHash(input.email, fresh);
      }
      const { token, publicId } = await createSession(db, user.id, req);
      setSessionCookies(req, reply, token, user.email, user.department);
      await audit(db, {
        actor,
        action: 'signin.success',
        subject: user.email,
        ip: req.ip,
        details: rehashed ? { session: publicId, rehashed: true } : { session: publicId },
      });
      const sessionUser = toSessionUser({
        id: user.id,
        email: user.email,
        department: user.department,
        capabilities: await capabilitiesOf(db, user.id),
        isoId: user.partner_id,
        isoName: await isoNameOf(db, user.partner_id),
      });
      return {
        success: true,
        token: publicId,
        department: user.department,
        message: 'Signed in',
        user: sessionUser,
      };
    },
  });

  route(app, deps, {
    endpoint: accountEndpoints.validateUser,
    access: 'session',
    scope: 'platform',
    handler: async ({ user }) => ({ success: true as const, user: toSessionUser(user) }),
  });

  // The web app's session check. validateUser answers 401 without a session, which a browser logs as an
  // error on every signed-out page load; this answers 200 either way and, like validateUser, slides a
  // valid session.
  route(app, deps, {
    endpoint: accountEndpoints.session,
    access: 'public',
    scope: 'platform',
    rateLimit: 'sessionProbe',
    handler: async ({ db, req, reply }) => {
      const user = await sessionUser(db, req, reply);
      return user ? { signedIn: true as const, user: toSessionUser(user) } : { signedIn: false as const };
    },
  });

  route(app, deps, {
    endpoint: accountEndpoints.signout,
    access: 'public',
    scope: 'platform',
    handler: async ({ db, req, reply }) => {
      const token = req.cookies[SESSION_COOKIE];
      if (token) {
        const session = await db
          .selectFrom('sessions as s')
          .innerJoin('users as u', 'u.id', 's.user_id')
          .select(['u.id', 'u.email', 's.token_hash'])
          .where('s.token_hash', '=', sha256(token))
          .executeTakeFirst();
        if (session) {
          await endSession(db, session.token_hash);
          await audit(db, {
            actor: { id: session.id, email: session.email },
            action: 'signout',
            subject: session.email,
            ip: req.ip,
          });
        }
      }
      clearSessionCookies(req, reply);
      return { success: true, message: 'Signed out' };
    },
  });

  route(app, deps, {
    endpoint: accountEndpoints.changePassword,
    access: 'session',
    scope: 'platform',
    handler: async ({ input, user, db, req, reply }) => {
      if (input.email !== user.email) throw forbidden('You can only change your own password');
      const record = await findUserByEmail(db, user.email);
      if (!record) throw new AppError('unauthorized', 'Your session has expired. Please sign in again.');
      if (!(await verifyPassword(record.password_hash, input.oldpassword))) {
        throw badRequest('The current password is incorrect');
      }
      await replacePassword(db, user.id, input.password);
      await endAllSessions(db, user.id);
      clearSessionCookies(req, reply);
      await audit(db, {
        actor: { id: user.id, email: user.email },
        action: 'password.change',
        subject: user.email,
        ip: req.ip,
      });
      return { success: true, message: 'Password changed. Please sign in with your new password.' };
    },
  });

  route(app, deps, {
    endpoint: accountEndpoints.forgotPassword,
    access: 'public',
    scope: 'platform',
    rateLimit: 'forgotPassword',
    handler: async ({ input, db, req }) => {
      const user = await findUserByEmail(db, input.email);
      if (user?.active) {
        const code = randomToken();
        await db
          .updateTable('password_resets')
          .set({ used_at: new Date() })
          .where('user_id', '=', user.id)
          .where('used_at', 'is', null)
          .execute();
        await db
          .insertInto('password_resets')
          .values({
            token_hash: sha256(code),
            user_id: user.id,
            expires_at: new Date(Date.now() + RESET_LINK_TTL_MS),
          })
          .execute();
        const link = `${deps.config.appUrl}/reset?code=${code}`;
        await deps.mailer.send(db, {
          to: user.email,
          subject: 'Reset your PayDesk password',
          text: [
            'Someone asked to reset the password of your PayDesk account.',
            '',
            `To choose a new password, open this link within the next hour: ${link}`,
            '',
            'The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.',
          ].join('\n'),
          html: `<p>Someone asked to reset the password of your PayDesk account.</p><p>To choose a new password, open this link within the next hour:<br><a href="${link}">${link}</a></p><p>The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>`,
        });
        await audit(db, {
          actor: { id: user.id, email: user.email },
          action: 'password.reset_request',
          subject: user.email,
          ip: req.ip,
        });
      } else {
        await audit(db, {
          actor: null,
          action: 'password.reset_request',
          subject: input.email,
          ip: req.ip,
          details: { unknown: true },
        });
      }
      return { success: true, message: FORGOT_PASSWORD_MESSAGE };
    },
  });

  async function liveReset(db: Deps['db'], code: string) {
    return db
      .selectFrom('password_resets as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.token_hash', 'u.id', 'u.email'])
      .where('r.token_hash', '=', sha256(code))
      .where('r.used_at', 'is', null)
      .where('r.expires_at', '>', new Date())
      .where('u.active', '=', true)
      .executeTakeFirst();
  }

  route(app, deps, {
    endpoint: accountEndpoints.checkResetPassword,
    access: 'public',
    scope: 'platform',
    handler: async ({ input, db }) => {
      if (!(await liveReset(db, input.code))) throw badRequest(INVALID_RESET_LINK);
      return { success: true, message: 'The reset link is valid' };
    },
  });

  route(app, deps, {
    endpoint: accountEndpoints.resetPassword,
    access: 'public',
    scope: 'platform',
    rateLimit: 'resetPassword',
    handler: async ({ input, db, req }) => {
      const reset = await liveReset(db, input.code);
      if (!reset) throw badRequest(INVALID_RESET_LINK);
      await replacePassword(db, reset.id, input.password);
      await db
        .updateTable('password_resets')
        .set({ used_at: new Date() })
        .where('token_hash', '=', reset.token_hash)
        .execute();
      await endAllSessions(db, reset.id);
      await audit(db, {
        actor: { id: reset.id, email: reset.email },
        action: 'password.reset',
        subject: reset.email,
        ip: req.ip,
      });
      return { success: true, message: 'Your password has been reset. You can now sign in.' };
    },
  });

  for (const register of [accountEndpoints.register, accountEndpoints.registerLegacy])
    route(app, deps, {
      endpoint: register,
      access: 'manage_users',
      scope: 'staffOnly',
      rateLimit: 'registration',
      handler: async ({ input, user, db, req }) => {
        const problem = passwordProblem(input.password);
        if (problem) throw badRequest(problem);
        if (await findUserByEmail(db, input.email))
          throw new AppError('conflict', 'A user with this email already exists');
        await createUser(db, {
          email: input.email,
          department: input.department,
          passwordHash: await hashPassword(input.password),
        });
        await audit(db, {
          actor: { id: user.id, email: user.email },
          action: 'user.register',
          subject: input.email,
          ip: req.ip,
          details: { department: input.department },
        });
        return { success: true, message: `User ${input.email} registered` };
      },
    });
}

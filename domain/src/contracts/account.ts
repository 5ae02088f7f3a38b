import { z } from 'zod';
import { CAPABILITIES, DEPARTMENTS } from '../access';
import { endpoint, messageAnswer } from '../endpoint';
import { accountPaths } from './accountPaths';
import { email, requiredText } from './common';

export { accountPaths, accountRefs } from './accountPaths';

export const signinBody = z.strictObject({
  email,
  password: requiredText('Password', 1024),
});
export type SigninBody = z.input<typeof signinBody>;

/** The signed-in user as the web app sees it. */
export const signedInUser = z.object({
  email: z.string(),
  department: z.enum(DEPARTMENTS),
  capabilities: z.array(z.enum(CAPABILITIES)),
  /** Set when the user is partner staff bound to one ISO. */
  iso: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type SessionUser = z.output<typeof signedInUser>;

export const signinAnswer = z.object({
  success: z.boolean(),
  /**
   * Kept for the contract. It is the session's public reference, not a credential: the secret session
   * token only ever travels in the HttpOnly `login` cookie, so no script can read it.
   */
  token: z.string(),
  department: z.union([z.enum(DEPARTMENTS), z.literal('')]),
  message: z.string(),
  user: signedInUser.optional(),
});
export type SigninAnswer = z.output<typeof signinAnswer>;

export const validateAnswer = z.object({ success: z.literal(true), user: signedInUser });
export type ValidateAnswer = z.output<typeof validateAnswer>;

/** The session probe's answer: the signed-in user, or that there is none (not an error). */
export const sessionProbeAnswer = z.discriminatedUnion('signedIn', [
  z.object({ signedIn: z.literal(true), user: signedInUser }),
  z.object({ signedIn: z.literal(false) }),
]);
export type SessionProbeAnswer = z.output<typeof sessionProbeAnswer>;

export type MessageAnswer = z.output<typeof messageAnswer>;

export const passwordField = requiredText('Password', 1024);

export const changePasswordBody = z
  .strictObject({
    email,
    oldpassword: requiredText('Current password', 1024),
    password: passwordField,
    confirmpassword: requiredText('Confirm password', 1024),
  })
  .refine((b) => b.password === b.confirmpassword, {
    message: 'New password and confirm password do not match',
    path: ['confirmpassword'],
  });
export type ChangePasswordBody = z.input<typeof changePasswordBody>;

export const forgotPasswordBody = z.strictObject({ email });

export const resetCode = z
  .string({ error: 'Reset code is required' })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, 'The reset link is not valid');

export const checkResetPasswordBody = z.strictObject({ code: resetCode });
export const resetPasswordBody = z.strictObject({ code: resetCode, password: passwordField });

export const registerBody = z
  .strictObject({
    email,
    department: z.enum(DEPARTMENTS, { error: `Department must be one of ${DEPARTMENTS.join(', ')}` }),
    password: passwordField,
    confirmpassword: requiredText('Confirm password', 1024),
  })
  .refine((b) => b.password === b.confirmpassword, {
    message: 'Password and confirm password do not match',
    path: ['confirmpassword'],
  });
export type RegisterBody = z.input<typeof registerBody>;

const registerCall = {
  method: 'POST',
  summary: 'Registers a user with a department and a password (user administrators)',
  input: registerBody,
  output: messageAnswer,
} as const;

/** The account calls (spec document 1 §7 Account, document 2 §7 Register). */
export const accountEndpoints = {
  signin: endpoint({
    method: 'POST',
    path: accountPaths.signin,
    summary: 'Signs in with e-mail and password; the session travels in an HttpOnly cookie',
    input: signinBody,
    output: signinAnswer,
  }),
  validateUser: endpoint({
    method: 'POST',
    path: accountPaths.validateUser,
    summary: 'The signed-in user (401 without a session); slides the session',
    output: validateAnswer,
  }),
  session: endpoint({
    method: 'POST',
    path: accountPaths.session,
    summary: 'Whether there is a session, and its user; 200 either way',
    output: sessionProbeAnswer,
  }),
  signout: endpoint({
    method: 'POST',
    path: accountPaths.signout,
    summary: 'Ends the session and clears its cookies',
    output: messageAnswer,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: accountPaths.changePassword,
    summary: "Changes the signed-in user's password and ends all their sessions",
    input: changePasswordBody,
    output: messageAnswer,
  }),
  forgotPassword: endpoint({
    method: 'POST',
    path: accountPaths.forgotPassword,
    summary: 'E-mails a one-time reset link; answers alike for unknown addresses',
    input: forgotPasswordBody,
    output: messageAnswer,
  }),
  checkResetPassword: endpoint({
    method: 'POST',
    path: accountPaths.checkResetPassword,
    summary: 'Whether a reset link is still valid',
    input: checkResetPasswordBody,
    output: messageAnswer,
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: accountPaths.resetPassword,
    summary: 'Sets a new password with a reset link and ends all sessions of the account',
    input: resetPasswordBody,
    output: messageAnswer,
  }),
  register: endpoint({ ...registerCall, path: accountPaths.register }),
  /** The older system's path of the same call. */
  registerLegacy: endpoint({ ...registerCall, path: accountPaths.registerLegacy }),
};

export const FORGOT_PASSWORD_MESSAGE = 'We sent you an email with instructions to reset your password';
export { CAPABILITIES };

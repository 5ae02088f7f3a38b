import { z } from 'zod';
import { CAPABILITIES, type Capability, DEPARTMENTS, type Department } from '../access';
import { email, requiredText } from './common';

export { accountPaths } from './accountPaths';

export const signinBody = z.strictObject({
  email,
  password: requiredText('Password', 1024),
});
export type SigninBody = z.input<typeof signinBody>;

/** The signed-in user as the web app sees it. */
export interface SessionUser {
  email: string;
  department: Department;
  capabilities: Capability[];
  /** Set when the user is partner staff bound to one ISO. */
  iso: { id: number; name: string } | null;
}

export interface SigninAnswer {
  success: boolean;
  /**
   * Kept for the contract. It is the session's public reference, not a credential: the secret session
   * token only ever travels in the HttpOnly `login` cookie, so no script can read it.
   */
  token: string;
  department: Department | '';
  message: string;
  user?: SessionUser;
}

export interface ValidateAnswer {
  success: true;
  user: SessionUser;
}

/** The session probe's answer: the signed-in user, or that there is none (not an error). */
export type SessionProbeAnswer = { signedIn: true; user: SessionUser } | { signedIn: false };

export interface MessageAnswer {
  success: boolean;
  message: string;
}

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

export const FORGOT_PASSWORD_MESSAGE = 'We sent you an email with instructions to reset your password';
export { CAPABILITIES };

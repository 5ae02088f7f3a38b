import { endpointRef } from '../endpointRef';
import type { accountEndpoints } from './account';

/*
 * Kept apart from the account schemas so the sign-in page can name these paths without loading zod.
 */

/** Calls of spec document 1 §7 "Account" and document 2 §7 "Register"; paths and field names are the contract. */
export const accountPaths = {
  validateUser: '/api/app/account/validateUser',
  /** Added by PayDesk: is there a session? 200 either way, so a signed-out page load logs no error. */
  session: '/api/app/account/session',
  signin: '/api/app/account/signin',
  signout: '/api/app/account/signout',
  changePassword: '/api/app/account/changepassword',
  forgotPassword: '/api/app/account/forgotpassword',
  resetPassword: '/api/app/account/resetpassword',
  checkResetPassword: '/api/app/account/checkresetpassword',
  register: '/api/app/account/register',
  registerLegacy: '/api/register',
} as const;

/** The account calls the signed-out pages make, as references (see endpointRef.ts): typed, without zod. */
export const accountRefs = {
  signin: endpointRef<typeof accountEndpoints.signin>('POST', accountPaths.signin),
  session: endpointRef<typeof accountEndpoints.session>('POST', accountPaths.session),
  signout: endpointRef<typeof accountEndpoints.signout>('POST', accountPaths.signout),
};

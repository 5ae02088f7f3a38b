/** Session constants of spec document 1 §9. */
export const SESSION_TTL_MS = 60 * 60 * 1000;
export const IDLE_SIGN_OUT_MS = 2_400_000;
export const REVALIDATE_AFTER_MS = 1_200_000;
export const IDLE_DEBOUNCE_MS = 250;
export const FORGOT_REDIRECT_MS = 8_000;

/** Sign-in lockout. */
export const MAX_FAILED_SIGNINS = 10;
export const LOCKOUT_MS = 30 * 60 * 1000;
/** Failed sign-ins one client address may make in CLIENT_SIGNIN_WINDOW_MS, whatever accounts it tries. */
export const CLIENT_SIGNIN_LIMIT = 20;
export const CLIENT_SIGNIN_WINDOW_MS = 15 * 60 * 1000;

/** A password-reset link is valid this long, once. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

export const SESSION_COOKIE = 'login';
export const EMAIL_COOKIE = 'email';
export const DEPT_COOKIE = 'dept';

/** The password rule of the spec's hint text, enforced by the server (and shown by the web app). */
export const PASSWORD_HINT = 'min 8 char; atleast one uppercase, lowercase, numeric and special char';
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
/** A new password must differ from this many most recent ones (the current one included). */
export const PASSWORD_HISTORY_DEPTH = 4;

/** Returns null when the password satisfies the rule, otherwise a message naming what is missing. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'Password length must be 8 characters or more';
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  const missing: string[] = [];
  if (!/[A-Z]/.test(password)) missing.push('an uppercase letter');
  if (!/[a-z]/.test(password)) missing.push('a lowercase letter');
  if (!/[0-9]/.test(password)) missing.push('a number');
  if (!/[^A-Za-z0-9]/.test(password)) missing.push('a special character');
  if (missing.length === 0) return null;
  return `Password must contain ${joinWords(missing)}`;
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

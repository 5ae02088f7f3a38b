/**
 * Masked forms of sensitive fields (SSN, account and routing numbers), shown where the clear value is not
 * needed. The clear value is only ever shown through a reveal, which the server records in the audit log.
 */

const DOT = '•';

/** All but the last four characters hidden, length kept: "123456789" → "•••••6789". Four or fewer: all hidden. */
export function maskLast4(value: string): string {
  const chars = [...value];
  if (chars.length <= 4) return DOT.repeat(chars.length);
  return DOT.repeat(chars.length - 4) + chars.slice(-4).join('');
}

const digits = (value: string) => value.replace(/\D/g, '');

/** "123-45-6789" → "•••-••-6789". Not nine digits: every digit hidden, so a typo never shows more. */
export function maskSsn(value: string): string {
  const d = digits(value);
  if (d === '') return '';
  return d.length === 9 ? `${DOT.repeat(3)}-${DOT.repeat(2)}-${d.slice(-4)}` : DOT.repeat(d.length);
}

/**
 * A bank account (DDA) number as "••••6789": the length is not shown, since it narrows the bank down.
 * Four digits or fewer: all hidden.
 */
export function maskAccountNumber(value: string): string {
  const d = digits(value);
  if (d === '') return '';
  return d.length <= 4 ? DOT.repeat(4) : `${DOT.repeat(4)}${d.slice(-4)}`;
}

/** An ABA routing number (nine digits) as "•••••6789". */
export function maskRoutingNumber(value: string): string {
  return maskLast4(digits(value));
}

import { createHash, createSign, type KeyObject, randomBytes } from 'node:crypto';

/**
 * OAuth 1.0a request signing as Mastercard's APIs require it: RSA-SHA256 (RFC 5849 §3.4.3 with SHA-256) over
 * the signature base string of RFC 5849 §3.4.1, plus Mastercard's `oauth_body_hash` (the base64 SHA-256 of the
 * body, signed like any other oauth parameter), so the body cannot be changed in transit.
 */

/** RFC 5849 §3.6: every byte but unreserved characters (ALPHA, DIGIT, - . _ ~) percent-encoded, upper-case hex. */
export const oauthEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** RFC 5849 §3.4.1.2: scheme and host lower-case, the default port left out, no query or fragment. */
function baseStringUri(url: URL): string {
  const defaultPort =
    (url.protocol === 'https:' && url.port === '443') || (url.protocol === 'http:' && url.port === '80');
  const host = url.hostname.toLowerCase() + (url.port && !defaultPort ? `:${url.port}` : '');
  return `${url.protocol.toLowerCase()}//${host}${url.pathname || '/'}`;
}

/** RFC 5849 §3.4.1: METHOD&uri&params, the query's and the oauth parameters encoded, sorted by name then value. */
export function signatureBaseString(method: string, url: URL, oauthParams: Record<string, string>): string {
  const pairs: [string, string][] = [
    ...[...url.searchParams.entries()].map(([k, v]) => [oauthEncode(k), oauthEncode(v)] as [string, string]),
    ...Object.entries(oauthParams).map(([k, v]) => [oauthEncode(k), oauthEncode(v)] as [string, string]),
  ];
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const normalized = pairs.map(([k, v]) => `${k}=${v}`).join('&');
  return [method.toUpperCase(), oauthEncode(baseStringUri(url)), oauthEncode(normalized)].join('&');
}

export interface OAuthSigning {
  consumerKey: string;
  signingKey: KeyObject;
  /** For tests: a fixed nonce and time make the header reproducible. */
  nonce?: string;
  timestamp?: number;
}

/** The Authorization header of one request. */
export function oauthAuthorization(method: string, url: URL, body: string, signing: OAuthSigning): string {
  const params: Record<string, string> = {
    oauth_body_hash: createHash('sha256').update(body, 'utf8').digest('base64'),
    oauth_consumer_key: signing.consumerKey,
    oauth_nonce: signing.nonce ?? randomBytes(16).toString('hex'),
    oauth_signature_method: 'RSA-SHA256',
    oauth_timestamp: String(signing.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
  };
  const signature = createSign('RSA-SHA256')
    .update(signatureBaseString(method, url, params))
    .sign(signing.signingKey, 'base64');
  const all = { ...params, oauth_signature: signature };
  return `OAuth ${Object.entries(all)
    .map(([k, v]) => `${k}="${oauthEncode(v)}"`)
    .join(',')}`;
}

import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Capability, hasPermission, type Principal } from '@paydesk/domain';
import type { Db } from '../db/connect';
import { audit } from './audit';
import { forbidden } from './errors';

/**
 * Sensitive fields (SSN, DOB, TIN, DDA and routing numbers) encrypted at rest with AES-256-GCM.
 * A stored value is one text, `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url), so it names the key that
 * wrote it and keys can rotate. Messages of this module never contain the value, clear or stored.
 */

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface PiiKey {
  /** First 8 hex of the key's SHA-256: names the key in stored values without giving it away. */
  id: string;
  key: Buffer;
}

export interface PiiKeyring {
  /** Encrypts every new value. */
  current: PiiKey;
  /** Earlier keys, still read so values written with them decrypt until they are re-encrypted. */
  old: PiiKey[];
}

export type PiiErrorCode = 'not_configured' | 'malformed' | 'unknown_key' | 'tampered';

/** Why a stored value could not be read. Never carries the value. */
export class PiiError extends Error {
  constructor(
    readonly code: PiiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'PiiError';
  }
}

export const piiKeyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A key from its base64 text (PII_KEY, pii-key.txt); the message says what is wrong, not the key. */
export function parsePiiKey(text: string): PiiKey | { error: string } {
  const trimmed = text.trim();
  if (!BASE64.test(trimmed) || trimmed.length % 4 !== 0)
    return { error: `must be base64 of ${KEY_BYTES} random bytes (e.g. openssl rand -base64 32)` };
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== KEY_BYTES)
    return { error: `must be base64 of ${KEY_BYTES} bytes; this one holds ${key.length}` };
  return { id: piiKeyId(key), key };
}

/** PII_KEYS_OLD: comma-separated `id:base64` pairs; each id must be the one the key derives. */
export function parseOldPiiKeys(text: string): PiiKey[] | { error: string } {
  const keys: PiiKey[] = [];
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const [index, entry] of entries.entries()) {
    const where = `entry ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon < 0) return { error: `${where} must be id:base64` };
    const parsed = parsePiiKey(entry.slice(colon + 1));
    if ('error' in parsed) return { error: `${where}: the key ${parsed.error}` };
    const id = entry.slice(0, colon).trim();
    if (id !== parsed.id) return { error: `${where}: the id is ${id} but the key's id is ${parsed.id}` };
    keys.push(parsed);
  }
  return keys;
}

/**
 * The local key used when PII_KEY is unset: made once and kept in the data folder, like the demo password.
 * `created` tells the caller to say so; losing this file loses every value it encrypted.
 */
export function localPiiKey(file: string): { key: PiiKey; created: boolean } {
  if (fs.existsSync(file)) {
    const parsed = parsePiiKey(fs.readFileSync(file, 'utf8'));
    if ('error' in parsed) throw new Error(`The PII key in ${file} ${parsed.error}`);
    return { key: parsed, created: false };
  }
  const key = randomBytes(KEY_BYTES);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return { key: { id: piiKeyId(key), key }, created: true };
}

let keyring: PiiKeyring | null = null;

/** Set once at start (main.ts) from PII_KEY or the local key; tests set their own. */
export function usePiiKeys(keys: PiiKeyring): void {
  keyring = keys;
}

/** Whether a key is set (tests that build an app without main.ts set one). */
export const hasPiiKeys = (): boolean => keyring !== null;

function keys(): PiiKeyring {
  if (!keyring) throw new PiiError('not_configured', 'No PII key is configured');
  return keyring;
}

/** The header of a stored value is authenticated too, so a value cannot be moved under another key id. */
const header = (keyId: string) => `${VERSION}.${keyId}`;

export function encryptPii(value: string): string {
  const { current } = keys();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  cipher.setAAD(Buffer.from(header(current.id)));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
  return [header(current.id), ...parts].join('.');
}

/** Strict base64url: Node ignores stray characters and unused bits, which would let an altered text pass. */
function decodePart(text: string, bytes?: number): Buffer {
  const buffer = Buffer.from(text, 'base64url');
  if (buffer.toString('base64url') !== text || (bytes !== undefined && buffer.length !== bytes))
    throw new PiiError('malformed', 'The stored value is not a PII value');
  return buffer;
}

interface StoredPii {
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

function parseStored(stored: string): StoredPii {
  const parts = stored.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION || !/^[0-9a-f]{8}$/.test(parts[1] ?? ''))
    throw new PiiError('malformed', 'The stored value is not a PII value');
  const [, keyId, iv, tag, ciphertext] = parts as [string, string, string, string, string];
  return {
    keyId,
    iv: decodePart(iv, IV_BYTES),
    tag: decodePart(tag, TAG_BYTES),
    ciphertext: decodePart(ciphertext),
  };
}

function keyFor(keyId: string): PiiKey {
  const { current, old } = keys();
  const key = [current, ...old].find((k) => k.id === keyId);
  if (!key)
    throw new PiiError(
      'unknown_key',
      `The stored value was written with key ${keyId}, which is not configured`,
    );
  return key;
}

/** The clear value; throws PiiError for a malformed, tampered or foreign value, never returns garbage. */
export function decryptPii(stored: string): string {
  const { keyId, iv, tag, ciphertext } = parseStored(stored);
  const decipher = createDecipheriv('aes-256-gcm', keyFor(keyId).key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(header(keyId)));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new PiiError('tampered', 'The stored value does not match its key: altered or damaged');
  }
}

/** True when the value was written with an earlier key (rotation re-encrypts it with reencrypt). */
export function needsReencryption(stored: string): boolean {
  return parseStored(stored).keyId !== keys().current.id;
}

/** The same value under the current key; a value already under it comes back unchanged. */
export function reencrypt(stored: string): string {
  return needsReencryption(stored) ? encryptPii(decryptPii(stored)) : stored;
}

export interface PiiReveal {
  user: Principal & { id: number; email: string };
  /** The capability that lets a user see this field in clear. */
  capability: Capability;
  /** Whose field it is, as the audit log names it, e.g. "lead 42" or "merchant 5100123". */
  subject: string;
  /** Which field, in words, e.g. "SSN" or "DDA". */
  field: string;
  stored: string;
  ip: string | null;
}

/**
 * Shows one sensitive field in clear to a user who holds its capability, and records that in the audit log
 * (who, whose, which field; never the value). A user without the capability is refused and nothing is logged.
 */
export async function revealPii(db: Db, reveal: PiiReveal): Promise<string> {
  if (!hasPermission(reveal.user, reveal.capability)) throw forbidden();
  const value = decryptPii(reveal.stored);
  await audit(db, {
    actor: { id: reveal.user.id, email: reveal.user.email },
    action: 'pii.reveal',
    subject: reveal.subject,
    ip: reveal.ip,
    details: { field: reveal.field, capability: reveal.capability },
  });
  return value;
}

/**
 * Sets the keys from configuration: PII_KEY (and PII_KEYS_OLD), or without PII_KEY a key made once and kept in
 * DATA_DIR/pii-key.txt, with a warning. Called before anything reads or writes a sensitive field (the demo seed
 * writes bank numbers).
 */
export function configurePiiKeys(
  config: { PII_KEY?: PiiKey | undefined; PII_KEYS_OLD: PiiKey[]; DATA_DIR: string },
  warn: (line: string) => void = console.warn,
): void {
  let current = config.PII_KEY;
  if (!current) {
    const piiKeyFile = path.join(config.DATA_DIR, 'pii-key.txt');
    const local = localPiiKey(piiKeyFile);
    current = local.key;
    warn(
      `Warning: PII_KEY is unset; sensitive fields use the local key ${local.created ? 'just made in' : 'in'} ${piiKeyFile}. ` +
        'Set PII_KEY for production and keep it backed up: values cannot be read without their key.',
    );
  }
  usePiiKeys({ current, old: config.PII_KEYS_OLD });
}

import { createHash, randomBytes } from 'node:crypto';
import { hash, parseOptions, verify } from '@node-rs/argon2';

/**
 * argon2id at the cost OWASP's Password Storage Cheat Sheet lists as equal in strength to its first choice
 * (19 MiB × 2 passes): 7 MiB × 5 passes, one lane. The same work in a working set a third the size: beside a busy
 * database on two cores (whose scans fill the shared cache) it answers in about half the time of 19 MiB × 2, and a
 * sign-in under heavy work took about a third less (docs/bench.md, issue 18). A hash stored at any other cost is
 * replaced at its owner's next sign-in (needsRehash).
 */
export const ARGON2 = { memoryCost: 7_168, timeCost: 5, parallelism: 1 } as const;
const ARGON2ID_PREFIX = '$argon2id$';

export const hashPassword = (password: string) => hash(password, ARGON2);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Whether a stored hash (whose password has just matched) was made otherwise than hashPassword makes one now. */
export function needsRehash(passwordHash: string): boolean {
  if (!passwordHash.startsWith(ARGON2ID_PREFIX)) return true;
  try {
    const used = parseOptions(passwordHash);
    return (
      used.memoryCost !== ARGON2.memoryCost ||
      used.timeCost !== ARGON2.timeCost ||
      used.parallelism !== ARGON2.parallelism
    );
  } catch {
    return true;
  }
}

/** A hash to verify against when the user does not exist, so timing does not tell whether it does. */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomToken());
  return decoy;
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

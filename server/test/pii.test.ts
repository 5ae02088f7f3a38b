import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import type { Db } from '../src/db/connect';
import { AppError } from '../src/platform/errors';
import {
  decryptPii,
  encryptPii,
  localPiiKey,
  needsReencryption,
  PiiError,
  type PiiKey,
  piiKeyId,
  reencrypt,
  revealPii,
  usePiiKeys,
} from '../src/platform/pii';
import { testDatabase } from './helpers';

const newKey = (): PiiKey => {
  const key = randomBytes(32);
  return { id: piiKeyId(key), key };
};

const SSN = '123-45-6789';

/** Calls fn and returns what it threw, to look at the error itself. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

let current: PiiKey;
beforeEach(() => {
  current = newKey();
  usePiiKeys({ current, old: [] });
});

describe('encryption of sensitive fields', () => {
  it('round-trips values, unicode and empty ones too', () => {
    for (const value of [SSN, '', 'Zoë Ångström — 東京 🏦', 'x'.repeat(5000)]) {
      const stored = encryptPii(value);
      expect(stored).toMatch(new RegExp(`^v1\\.${current.id}\\.[\\w-]+\\.[\\w-]+\\.[\\w-]*$`));
      expect(decryptPii(stored)).toBe(value);
    }
  });

  it('names the key by the first 8 hex of its SHA-256', () => {
    const key = Buffer.alloc(32, 7);
    // sha256 of 32 bytes of 0x07, computed outside node: python3 hashlib.sha256(bytes([7] * 32))
    expect(piiKeyId(key)).toBe('4bb06f8e');
  });

  it('encrypts the same value differently every time (a random IV)', () => {
    const stored = new Set(Array.from({ length: 20 }, () => encryptPii(SSN)));
    expect(stored.size).toBe(20);
    const ivs = new Set([...stored].map((s) => s.split('.')[2]));
    expect(ivs.size).toBe(20);
  });

  it('refuses a stored value altered anywhere, in any of its parts', () => {
    const stored = encryptPii(SSN);
    // Each character replaced by its base64url neighbour in the lowest bit too: in the last character of a
    // part that bit may be unused padding, which a lenient decoder would read as the same bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const neighbour = (c: string) => alphabet[alphabet.indexOf(c) ^ 1] ?? 'A';
    for (let i = 0; i < stored.length; i++) {
      for (const replacement of [stored[i] === 'A' ? 'B' : 'A', neighbour(stored[i] as string)]) {
        const altered = stored.slice(0, i) + replacement + stored.slice(i + 1);
        const err = thrown(() => decryptPii(altered));
        expect(err, `altered at ${i}`).toBeInstanceOf(PiiError);
      }
    }
    for (const altered of [
      `${stored}A`,
      stored.slice(0, -1),
      stored.split('.').slice(0, 4).join('.'),
      `${stored}.x`,
      stored.replace(/^v1/, 'v2'),
      '',
      SSN,
    ]) {
      expect(thrown(() => decryptPii(altered))).toBeInstanceOf(PiiError);
    }
  });

  it('refuses a value whose ciphertext was moved under another value', () => {
    const [a, b] = [encryptPii('111111111'), encryptPii('222222222')].map((s) => s.split('.'));
    const swapped = [...(a as string[]).slice(0, 4), (b as string[])[4]].join('.');
    expect((thrown(() => decryptPii(swapped)) as PiiError).code).toBe('tampered');
  });

  it('refuses a value written with a key it does not have', () => {
    const stored = encryptPii(SSN);
    usePiiKeys({ current: newKey(), old: [] });
    const err = thrown(() => decryptPii(stored)) as PiiError;
    expect(err).toBeInstanceOf(PiiError);
    expect(err.code).toBe('unknown_key');
    // A configured key under the wrong id: the key id is authenticated, so this fails too.
    const other = newKey();
    usePiiKeys({ current: { id: current.id, key: other.key }, old: [] });
    expect((thrown(() => decryptPii(stored)) as PiiError).code).toBe('tampered');
  });

  it('reads values of an old key after rotation, and reencrypt moves them to the new key', () => {
    const stored = encryptPii(SSN);
    expect(needsReencryption(stored)).toBe(false);
    expect(reencrypt(stored)).toBe(stored);

    const next = newKey();
    usePiiKeys({ current: next, old: [current] });
    expect(decryptPii(stored)).toBe(SSN);
    expect(needsReencryption(stored)).toBe(true);
    const moved = reencrypt(stored);
    expect(moved.split('.')[1]).toBe(next.id);
    expect(needsReencryption(moved)).toBe(false);
    expect(decryptPii(moved)).toBe(SSN);

    // Once the old key is dropped, only the re-encrypted value still reads.
    usePiiKeys({ current: next, old: [] });
    expect(decryptPii(moved)).toBe(SSN);
    expect(thrown(() => decryptPii(stored))).toBeInstanceOf(PiiError);
  });

  it('never puts the value, clear or stored, into an error message', () => {
    const stored = encryptPii(SSN);
    const cases = [
      stored.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      `v1.${current.id}.${SSN}`,
      SSN,
      `v1.00000000.${stored.split('.').slice(2).join('.')}`,
    ];
    for (const bad of cases) {
      const err = thrown(() => decryptPii(bad)) as Error;
      expect(err.message).not.toContain(SSN);
      expect(err.message).not.toContain('6789');
      expect(err.message).not.toContain(stored.split('.')[4]);
      expect(String(err.stack)).not.toContain(SSN);
    }
  });
});

describe('PII keys from the environment', () => {
  const key = randomBytes(32);
  const b64 = key.toString('base64');

  it('reads PII_KEY and PII_KEYS_OLD', () => {
    const old = randomBytes(32);
    const config = loadConfig({
      PII_KEY: b64,
      PII_KEYS_OLD: `${piiKeyId(old)}:${old.toString('base64')}`,
    });
    expect(config.PII_KEY?.id).toBe(piiKeyId(key));
    expect(config.PII_KEY?.key.equals(key)).toBe(true);
    expect(config.PII_KEYS_OLD.map((k) => k.id)).toEqual([piiKeyId(old)]);
    expect(loadConfig({}).PII_KEY).toBeUndefined();
    expect(loadConfig({}).PII_KEYS_OLD).toEqual([]);
  });

  it('refuses a bad key at start with a readable message that does not repeat it', () => {
    const bad = [
      ['not base64!', /PII_KEY: must be base64 of 32 random bytes/],
      [randomBytes(16).toString('base64'), /PII_KEY: must be base64 of 32 bytes; this one holds 16/],
      [randomBytes(33).toString('base64'), /this one holds 33/],
    ] as const;
    for (const [value, message] of bad) {
      const err = thrown(() => loadConfig({ PII_KEY: value })) as Error;
      expect(err.message).toMatch(/^Invalid configuration:/);
      expect(err.message).toMatch(message);
      expect(err.message).not.toContain(value);
    }
    const wrongId = thrown(() => loadConfig({ PII_KEYS_OLD: `deadbeef:${b64}` })) as Error;
    expect(wrongId.message).toContain(
      `PII_KEYS_OLD: entry 1: the id is deadbeef but the key's id is ${piiKeyId(key)}`,
    );
    expect(wrongId.message).not.toContain(b64);
    expect((thrown(() => loadConfig({ PII_KEYS_OLD: b64 })) as Error).message).toContain(
      'PII_KEYS_OLD: entry 1 must be id:base64',
    );
  });

  it('makes a local key once, readable by the owner only, and reads it back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pii-'));
    try {
      const file = path.join(dir, 'data', 'pii-key.txt');
      const made = localPiiKey(file);
      expect(made.created).toBe(true);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const again = localPiiKey(file);
      expect(again.created).toBe(false);
      expect(again.key.id).toBe(made.key.id);
      expect(again.key.key.equals(made.key.key)).toBe(true);
      fs.writeFileSync(file, 'short\n');
      expect(() => localPiiKey(file)).toThrow(/pii-key\.txt must be base64 of 32 random bytes/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sensitive fields in the database', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await testDatabase());
  });
  afterAll(async () => {
    await close?.();
  });

  const userByEmail = async (email: string) => {
    const user = await db
      .selectFrom('users')
      .select(['id', 'email', 'department'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const caps = await db
      .selectFrom('user_capabilities')
      .select('capability')
      .where('user_id', '=', user.id)
      .execute();
    return { ...user, capabilities: caps.map((c) => c.capability) };
  };

  it('keeps no clear text in the table', async () => {
    const values = [SSN, '000123456789', '1980-04-17', 'Zoë 東京'];
    await sql`create temp table pii_probe (id serial primary key, value text not null)`.execute(db);
    for (const value of values)
      await sql`insert into pii_probe (value) values (${encryptPii(value)})`.execute(db);
    const { rows } = await sql<{ value: string }>`select value from pii_probe order by id`.execute(db);
    expect(rows).toHaveLength(values.length);
    rows.forEach((row, i) => {
      const clear = values[i] as string;
      expect(row.value).not.toContain(clear);
      expect(row.value).not.toContain(Buffer.from(clear).toString('base64url'));
      expect(decryptPii(row.value)).toBe(clear);
    });
  });

  it('reveals to a holder of the capability and writes one audit row without the value', async () => {
    const admin = await userByEmail('admin@paydesk.local');
    const holder = {
      ...admin,
      capabilities: [...admin.capabilities.filter((c) => c !== 'leads'), 'leads' as const],
    };
    const stored = encryptPii(SSN);
    const before = await db
      .selectFrom('audit_log')
      .select(db.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    const value = await revealPii(db, {
      user: holder,
      capability: 'leads',
      subject: 'lead 42',
      field: 'SSN',
      stored,
      ip: '203.0.113.9',
    });
    expect(value).toBe(SSN);
    const rows = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('id', '>', Number(before.id ?? 0))
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      actor_user_id: admin.id,
      actor_email: admin.email,
      action: 'pii.reveal',
      subject: 'lead 42',
      ip: '203.0.113.9',
    });
    expect(row?.details).toEqual({ field: 'SSN', capability: 'leads' });
    const text = JSON.stringify(row);
    expect(text).not.toContain(SSN);
    expect(text).not.toContain('6789');
    expect(text).not.toContain(stored.split('.')[4]);
  });

  it('refuses a user without the capability and writes nothing', async () => {
    const sales = await userByEmail('sales@paydesk.local');
    const without = { ...sales, capabilities: sales.capabilities.filter((c) => c !== 'leads') };
    const before = await db
      .selectFrom('audit_log')
      .select(db.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const refused = revealPii(db, {
      user: without,
      capability: 'leads',
      subject: 'lead 42',
      field: 'SSN',
      stored: encryptPii(SSN),
      ip: null,
    });
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: 'forbidden' });
    await expect(refused).rejects.not.toHaveProperty('message', expect.stringContaining('6789'));
    const after = await db
      .selectFrom('audit_log')
      .select(db.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('writes no audit row for a value it cannot read', async () => {
    const admin = await userByEmail('admin@paydesk.local');
    const stored = encryptPii(SSN);
    usePiiKeys({ current: newKey(), old: [] });
    const before = await db
      .selectFrom('audit_log')
      .select(db.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(
      revealPii(db, {
        user: { ...admin, capabilities: ['leads'] },
        capability: 'leads',
        subject: 'lead 42',
        field: 'SSN',
        stored,
        ip: null,
      }),
    ).rejects.toBeInstanceOf(PiiError);
    const after = await db
      .selectFrom('audit_log')
      .select(db.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

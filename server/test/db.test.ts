import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrate';
import { type TestApp, testApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

describe('database', () => {
  it('returns the same JSON shapes from PGlite and PostgreSQL', async () => {
    const { rows } = await sql<Record<string, unknown>>`
      select count(*) as n, 12.50::numeric(10, 2) as money, '2024-02-29'::date as day,
             '2024-02-29T10:00:00Z'::timestamptz as at, 9007199254740::int8 as big`.execute(t.db);
    expect(rows[0]).toEqual({
      n: 1,
      money: '12.50',
      day: '2024-02-29',
      at: new Date('2024-02-29T10:00:00Z'),
      big: 9007199254740,
    });
  });

  it('migrations are idempotent', async () => {
    await migrateToLatest(t.db);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      t.db,
    );
    expect(rows.map((r) => r.name)).toContain('2026_11_21_0001_platform');
  });

  it('keeps e-mails lower-case in the database itself', async () => {
    await expect(
      t.db
        .insertInto('users')
        .values({ email: 'Upper@PayDesk.local', department: 'sales', password_hash: 'x' })
        .execute(),
    ).rejects.toThrow();
  });
});

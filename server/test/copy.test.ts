import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connected } from '../src/db/connect';
import { CopyBatch, copyField, copyIn } from '../src/db/copy';
import { testDatabase } from './helpers';

/** COPY's text format, written by hand from PostgreSQL's documentation (COPY, "Text Format"). */
describe('copyField', () => {
  it('writes null as \\N and numbers as they are', () => {
    expect(copyField(null)).toBe('\\N');
    expect(copyField(12)).toBe('12');
    expect(copyField(-0.5)).toBe('-0.5');
    expect(copyField('')).toBe('');
  });

  it('escapes what would end a field or a row, and every backslash', () => {
    expect(copyField('a\tb')).toBe('a\\tb');
    expect(copyField('a\nb')).toBe('a\\nb');
    expect(copyField('a\rb')).toBe('a\\rb');
    expect(copyField('a\\b')).toBe('a\\\\b');
    expect(copyField('\\\t\n\r\\')).toBe('\\\\\\t\\n\\r\\\\');
  });

  it('never writes a value that reads as null or as the end of the data', () => {
    expect(copyField('\\N')).toBe('\\\\N');
    expect(copyField('\\.')).toBe('\\\\.');
    expect(copyField('N')).toBe('N');
  });
});

describe('CopyBatch', () => {
  it('collects lines as UTF-8, growing past its first megabyte', () => {
    const batch = new CopyBatch();
    const line = `1\t${'é'.repeat(200_000)}\t€`;
    for (let i = 0; i < 4; i++) batch.add(line);
    expect(batch.rows).toBe(4);
    const expected = Buffer.from(`${line}\n`.repeat(4), 'utf8');
    expect(batch.bytes).toBe(expected.length);
    expect(batch.bytes).toBeGreaterThan(1024 * 1024);
    expect(Buffer.compare(batch.contents().data, expected)).toBe(0);
    batch.clear();
    batch.add('2');
    expect(batch.contents().data.toString()).toBe('2\n');
  });
});

describe('copyIn', () => {
  let c: Connected;
  beforeAll(async () => {
    c = await testDatabase();
  });
  afterAll(async () => {
    await c?.close();
  });

  const hostile = [
    'tab\there',
    'line\nbreak',
    'carriage\rreturn',
    'back\\slash',
    '\\.',
    '\\N',
    'ends with a backslash\\',
    '\\t is not a tab',
    '\\',
    '',
    'plain',
    'ünïcödé €',
  ];

  it('round-trips hostile text, nulls and numbers through the database, inside the transaction', async () => {
    const back = await c.db.transaction().execute(async (trx) => {
      await sql`create temporary table copied (n integer, s text, x numeric(14, 2)) on commit drop`.execute(
        trx,
      );
      const batch = new CopyBatch();
      hostile.forEach((s, i) => {
        batch.add([copyField(i), copyField(s), copyField(i % 2 ? null : `${i}.25`)].join('\t'));
      });
      batch.add([copyField(hostile.length), copyField(null), copyField(null)].join('\t'));
      await copyIn(trx, 'copied', ['n', 's', 'x'], batch.contents());
      const { rows } = await sql<{
        n: number;
        s: string | null;
        x: string | null;
      }>`select n, s, x::text as x from copied order by n`.execute(trx);
      return rows;
    });
    expect(back).toEqual([
      ...hostile.map((s, i) => ({ n: i, s, x: i % 2 ? null : `${i}.25` })),
      { n: hostile.length, s: null, x: null },
    ]);
  });

  it('fails the statement when a value does not fit its column, and the transaction with it', async () => {
    const batch = new CopyBatch();
    batch.add('1\tnot a number');
    await expect(
      c.db.transaction().execute(async (trx) => {
        await sql`create temporary table copied (n integer, x numeric) on commit drop`.execute(trx);
        await copyIn(trx, 'copied', ['n', 'x'], batch.contents());
      }),
    ).rejects.toThrow(/numeric/);
  });
});

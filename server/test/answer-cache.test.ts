import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connected } from '../src/db/connect';
import {
  cachedAnswer,
  cacheSize,
  KEEP_TEXT_UP_TO,
  keptArrayInParts,
  keptJson,
  MAX_CACHED_SIZE,
} from '../src/platform/answerCache';
import {
  bytesPiece,
  constantPiece,
  crc32Combine,
  gzipOf,
  lazyPiece,
  type Piece,
  piece,
  textOf,
  utf8Of,
} from '../src/platform/gzipPieces';
import { jsonBody } from '../src/platform/http';
import { migratedDatabase } from './helpers';

/*
 * The kept answers are bounded by characters as well as by count: ISO analytics of every group is megabytes, and a
 * server asked for it over many windows must not keep them all. The oracle is the bound itself and which keys are
 * computed again.
 */
let c: Connected;
beforeAll(async () => {
  c = await migratedDatabase();
});
afterAll(async () => {
  await c?.close();
});

describe('kept answers', () => {
  it('keeps an answer until its version changes', async () => {
    let computed = 0;
    const ask = () => cachedAnswer(c.db, c.db, 'bi', 'staff:x', async () => `answer ${++computed}`);
    expect(await ask()).toBe('answer 1');
    expect(await ask()).toBe('answer 1');
    await sql`update answer_versions set version = version + 1 where name = 'bi'`.execute(c.db);
    expect(await ask()).toBe('answer 2');
  });

  it('drops the least recently used answers to stay within the bound, keeps a long one compressed and none larger than half', async () => {
    const big = 'x'.repeat(Math.floor(MAX_CACHED_SIZE / 5));
    const computedKeys: string[] = [];
    const ask = (key: string, text = big) =>
      cachedAnswer(c.db, c.db, 'bi', key, async () => {
        computedKeys.push(key);
        return text;
      });
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await ask(key);
    expect(cacheSize(c.db).size).toBeLessThanOrEqual(MAX_CACHED_SIZE);
    computedKeys.length = 0;
    // The newest are kept, the oldest were dropped.
    await ask('g');
    await ask('f');
    expect(computedKeys).toEqual([]);
    await ask('a');
    expect(computedKeys).toEqual(['a']);

    // Longer than the text bound: kept compressed (it compresses well), so it is not computed again.
    const huge = 'y'.repeat(KEEP_TEXT_UP_TO + 1);
    computedKeys.length = 0;
    expect(await ask('huge', huge)).toBe(huge);
    expect(await ask('huge', huge)).toBe(huge);
    expect(computedKeys).toEqual(['huge']);
    expect(cacheSize(c.db).compressed).toBe(1);
    expect(cacheSize(c.db).size).toBeLessThanOrEqual(MAX_CACHED_SIZE);

    // Random text does not compress: larger than half the bound even compressed, it is sent but not kept.
    const noise = randomBytes(Math.ceil(MAX_CACHED_SIZE * 0.75)).toString('base64');
    computedKeys.length = 0;
    expect(await ask('noise', noise)).toBe(noise);
    expect(await ask('noise', noise)).toBe(noise);
    expect(computedKeys).toEqual(['noise', 'noise']);
    expect(cacheSize(c.db).size).toBeLessThanOrEqual(MAX_CACHED_SIZE);
  });

  it('sends an answer kept compressed as gzip to a client that accepts it and as JSON to one that does not', async () => {
    const rows = Array.from({ length: 400_000 }, (_, i) => ({
      mid: `M${i}`,
      amount: `${i}.95`,
      flag: 'MTF',
    }));
    const text = JSON.stringify(rows);
    expect(text.length).toBeGreaterThan(KEEP_TEXT_UP_TO);
    let computed = 0;
    const app = Fastify();
    app.post('/answer', async (req, reply) =>
      jsonBody(
        await keptJson(c.db, c.db, 'pci_billing', 'staff:http', async () => {
          computed++;
          return text;
        }),
        req,
        reply,
      ),
    );
    try {
      for (let i = 0; i < 2; i++) {
        const zipped = await app.inject({
          method: 'POST',
          url: '/answer',
          headers: { 'accept-encoding': 'gzip' },
        });
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(zipped.rawPayload.length).toBeLessThan(text.length / 4);
        expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(text);
        const plain = await app.inject({ method: 'POST', url: '/answer' });
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(plain.body).toBe(text);
      }
      expect(computed).toBe(1);
      expect(cacheSize(c.db).compressed).toBeGreaterThanOrEqual(1);
    } finally {
      await app.close();
    }
  });

  it('keeps an array answer in parts: a part whose version changes is computed again alone, and the gzip answer put together from the parts gunzips to the text', async () => {
    // Parts of every size: none, one element, multi-byte text, about 100 kB.
    const element = (part: string, i: number) =>
      JSON.stringify({ part, i, name: `Café ${part} ${'é'.repeat(i % 7)}` });
    const sizes: Record<string, number> = { p1: 0, p2: 1, p3: 2_500, p4: 40, p5: 0 };
    // p3 is kept under the versions named p3a to p3z: any of them raised makes it computed again.
    const parts = ['p1', 'p2', 'p3', 'p4', 'p5'].map((key) =>
      key === 'p3' ? { key, first: 'p3a', last: 'p3z' } : { key, first: key, last: key },
    );
    const keys = parts.map((p) => p.key);
    let round = 0;
    const textOf = (key: string) =>
      Array.from({ length: sizes[key] ?? 0 }, (_, i) => element(`${key}-${round}`, i)).join(',');
    const computed: string[][] = [];
    const app = Fastify();
    app.post('/answer', async (req, reply) =>
      jsonBody(
        await keptArrayInParts(c.db, c.db, 'approvals', 'staff', 'q', parts, async (stale) => {
          computed.push(stale.map((p) => p.key));
          return new Map(stale.filter((p) => (sizes[p.key] ?? 0) > 0).map((p) => [p.key, textOf(p.key)]));
        }),
        req,
        reply,
      ),
    );
    // The oracle: each part's elements made afresh, in the parts' order.
    const expected = (made: Record<string, number>) =>
      keys.flatMap((p) =>
        Array.from({ length: sizes[p] ?? 0 }, (_, i) => JSON.parse(element(`${p}-${made[p]}`, i))),
      );
    const ask = async () => {
      const zipped = await app.inject({
        method: 'POST',
        url: '/answer',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      const plain = await app.inject({ method: 'POST', url: '/answer' });
      expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
      return plain.json();
    };
    try {
      const made = { p1: 0, p2: 0, p3: 0, p4: 0, p5: 0 };
      expect(await ask()).toEqual(expected(made));
      expect(computed).toEqual([keys]);
      expect(await ask()).toEqual(expected(made));
      expect(computed).toHaveLength(1);
      // A version in p3's range and p4's raised: those two parts are computed again, and only they.
      round = 1;
      await sql`insert into answer_part_versions (name, part, version) values ('approvals', 'p3m', 1), ('approvals', 'p4', 1)
        on conflict (name, part) do update set version = answer_part_versions.version + 1`.execute(c.db);
      expect(await ask()).toEqual(expected({ ...made, p3: 1, p4: 1 }));
      expect(computed.at(-1)).toEqual(['p3', 'p4']);
      expect(await ask()).toEqual(expected({ ...made, p3: 1, p4: 1 }));
      expect(computed).toHaveLength(2);
      // The answer's own version (a truncate) raised: every part is computed again.
      round = 2;
      await sql`update answer_versions set version = version + 1 where name = 'approvals'`.execute(c.db);
      expect(await ask()).toEqual(expected({ p1: 2, p2: 2, p3: 2, p4: 2, p5: 2 }));
      expect(computed.at(-1)).toEqual(keys);
    } finally {
      await app.close();
    }
  });

  it('drops the parts a request no longer asks for once the parts outgrow a quarter of the bound', async () => {
    const big = (key: string) => JSON.stringify(key.repeat(Math.floor(MAX_CACHED_SIZE / 10)));
    const computed: string[][] = [];
    // Each ask a question of its own, so no whole answer kept for an earlier ask answers it: only the parts can.
    let question = 0;
    const ask = (keys: string[]) =>
      keptArrayInParts(
        c.db,
        c.db,
        'approvals',
        'prune',
        String(++question),
        keys.map((key) => ({ key, first: key, last: key })),
        async (stale) => {
          computed.push(stale.map((p) => p.key));
          return new Map(stale.map((p) => [p.key, big(p.key)]));
        },
      );
    await ask(['a', 'b']);
    await ask(['a', 'b']);
    expect(computed).toEqual([['a', 'b']]);
    // c's part takes the parts past a quarter of the bound: a and b, not asked, are dropped.
    await ask(['c']);
    await ask(['a', 'b']);
    expect(computed).toEqual([['a', 'b'], ['c'], ['a', 'b']]);
    expect(cacheSize(c.db).size).toBeLessThanOrEqual(MAX_CACHED_SIZE);
  });

  it('combines CRC-32s as zlib does, and gzip answers put together from pieces gunzip to their text', async () => {
    const lengths = [0, 1, 3, 255, 4_096, 65_537, 300_001];
    for (const a of lengths)
      for (const b of lengths) {
        const x = randomBytes(a);
        const y = randomBytes(b);
        expect(crc32Combine(crc32(x), crc32(y), b), `${a} + ${b}`).toBe(crc32(Buffer.concat([x, y])));
      }
    // Pieces below 64 KB are deflated on this thread, larger ones on zlib's thread pool: both kinds, of each maker.
    const texts = [
      '',
      '[',
      'é日本',
      'x'.repeat(70_000),
      randomBytes(60_000).toString('base64'),
      randomBytes(50_000).toString('base64'),
      ']',
      'y'.repeat(65_535),
      '',
    ];
    const pieces = texts.map((text, i) => (i % 2 === 0 ? piece(text) : constantPiece(text)));
    expect(gunzipSync(await gzipOf(pieces)).toString('utf8')).toBe(texts.join(''));
    expect(gunzipSync(await gzipOf([])).toString('utf8')).toBe('');
    // Pieces made lazily, or kept as their bytes: the same text, bytes, lengths and gzip member.
    const made = [piece, constantPiece, lazyPiece, (text: string) => bytesPiece(Buffer.from(text))];
    const mixed = texts.map((text, i) => (made[i % made.length] as (text: string) => Piece)(text));
    expect(mixed.map((p) => p.length)).toEqual(texts.map((text) => Buffer.byteLength(text)));
    expect(textOf(mixed)).toBe(texts.join(''));
    expect(utf8Of(mixed).equals(Buffer.from(texts.join('')))).toBe(true);
    expect(gunzipSync(await gzipOf(mixed)).toString('utf8')).toBe(texts.join(''));
    expect(mixed.map((p) => p.crc)).toEqual(texts.map((text) => crc32(Buffer.from(text))));
  });
});

import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connected } from '../src/db/connect';
import {
  cachedAnswer,
  cacheSize,
  KEEP_TEXT_UP_TO,
  keptJson,
  MAX_CACHED_SIZE,
} from '../src/platform/answerCache';
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
});

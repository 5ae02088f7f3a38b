import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connected } from '../src/db/connect';
import { cachedAnswer, cacheSize, MAX_CACHED_CHARS } from '../src/platform/answerCache';
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

  it('drops the least recently used answers to stay within the characters, and keeps none larger than half', async () => {
    const big = 'x'.repeat(Math.floor(MAX_CACHED_CHARS / 5));
    const computedKeys: string[] = [];
    const ask = (key: string, text = big) =>
      cachedAnswer(c.db, c.db, 'bi', key, async () => {
        computedKeys.push(key);
        return text;
      });
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) await ask(key);
    expect(cacheSize(c.db).chars).toBeLessThanOrEqual(MAX_CACHED_CHARS);
    computedKeys.length = 0;
    // The newest are kept, the oldest were dropped.
    await ask('g');
    await ask('f');
    expect(computedKeys).toEqual([]);
    await ask('a');
    expect(computedKeys).toEqual(['a']);

    const huge = 'y'.repeat(Math.floor(MAX_CACHED_CHARS / 2) + 1);
    computedKeys.length = 0;
    expect(await ask('huge', huge)).toBe(huge);
    expect(await ask('huge', huge)).toBe(huge);
    expect(computedKeys).toEqual(['huge', 'huge']);
    expect(cacheSize(c.db).chars).toBeLessThanOrEqual(MAX_CACHED_CHARS);
  });
});

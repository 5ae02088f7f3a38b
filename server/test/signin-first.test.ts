import type { FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BULK_QUEUE_MS,
  BULK_WAIT_MS,
  bulkStep,
  giveUpBulkTurn,
  inBulkTurn,
  signingIn,
} from '../src/platform/signinFirst';
import { deferred } from './deferred';

/**
 * Sign-in before bulk work (platform/signinFirst.ts): the order of events is checked with the clock under the
 * test's control, so nothing here depends on how fast the machine is.
 */

/** Lets every settled promise's callbacks run. */
const settle = () => vi.advanceTimersByTimeAsync(0);
const request = () => ({}) as FastifyRequest;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('bulk steps wait for sign-ins', () => {
  it('go on at once when no sign-in is under way', async () => {
    let stepped = false;
    void bulkStep().then(() => {
      stepped = true;
    });
    await settle();
    expect(stepped).toBe(true);
  });

  it('wait until the last sign-in under way has ended', async () => {
    const first = deferred();
    const second = deferred();
    const signins = [signingIn(() => first.promise), signingIn(() => second.promise)];
    let stepped = false;
    void bulkStep().then(() => {
      stepped = true;
    });
    await vi.advanceTimersByTimeAsync(BULK_WAIT_MS - 1);
    expect(stepped).toBe(false);
    first.resolve();
    await settle();
    expect(stepped).toBe(false);
    second.resolve();
    await settle();
    expect(stepped).toBe(true);
    await Promise.all(signins);
  });

  it('wait BULK_WAIT_MS at the longest, so that a stream of sign-ins never stops them', async () => {
    const signin = deferred();
    const running = signingIn(() => signin.promise);
    let stepped = false;
    void bulkStep().then(() => {
      stepped = true;
    });
    await vi.advanceTimersByTimeAsync(BULK_WAIT_MS);
    expect(stepped).toBe(true);
    signin.resolve();
    await running;
  });

  it('go on when a sign-in fails, and the failure reaches the sign-in', async () => {
    const signin = deferred();
    const running = signingIn(() => signin.promise);
    let stepped = false;
    void bulkStep().then(() => {
      stepped = true;
    });
    signin.reject(new Error('refused'));
    await expect(running).rejects.toThrow('refused');
    await settle();
    expect(stepped).toBe(true);
  });
});

describe('one bulk request at a time', () => {
  it('runs the next one when the one under way ends, in the order they came', async () => {
    const order: string[] = [];
    const first = deferred();
    const a = inBulkTurn(request(), async () => {
      order.push('a starts');
      await first.promise;
      order.push('a ends');
    });
    const b = inBulkTurn(request(), async () => {
      order.push('b runs');
    });
    const c = inBulkTurn(request(), async () => {
      order.push('c runs');
    });
    await settle();
    expect(order).toEqual(['a starts']);
    first.resolve();
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a starts', 'a ends', 'b runs', 'c runs']);
  });

  it('starts its work (and so its transaction) once no sign-in is under way', async () => {
    const signin = deferred();
    const signingNow = signingIn(() => signin.promise);
    let started = false;
    const bulk = inBulkTurn(request(), async () => {
      started = true;
    });
    await vi.advanceTimersByTimeAsync(BULK_WAIT_MS - 1);
    expect(started).toBe(false);
    signin.resolve();
    await Promise.all([signingNow, bulk]);
    expect(started).toBe(true);
  });

  it('gives the turn on when a request fails', async () => {
    const failing = inBulkTurn(request(), async () => {
      throw new Error('bad file');
    });
    const next = inBulkTurn(request(), async () => 'ran');
    await expect(failing).rejects.toThrow('bad file');
    await expect(next).resolves.toBe('ran');
  });

  it('lets the next request run once the one under way waits for a slow client', async () => {
    const slowClient = deferred();
    const req = request();
    const order: string[] = [];
    const exporting = inBulkTurn(req, async () => {
      order.push('export writes');
      giveUpBulkTurn(req);
      await slowClient.promise;
      order.push('export done');
    });
    const importing = inBulkTurn(request(), async () => {
      order.push('import runs');
    });
    await importing;
    expect(order).toEqual(['export writes', 'import runs']);
    // Giving the turn up twice, or after the end, changes nothing.
    giveUpBulkTurn(req);
    slowClient.resolve();
    await exporting;
    giveUpBulkTurn(req);
    expect(order).toEqual(['export writes', 'import runs', 'export done']);
  });

  it('overtakes a request that holds its turn for longer than BULK_QUEUE_MS', async () => {
    const stuck = deferred();
    const order: string[] = [];
    const holding = inBulkTurn(request(), async () => {
      await stuck.promise;
      order.push('stuck one ends');
    });
    const waiting = inBulkTurn(request(), async () => {
      order.push('waiting one runs');
    });
    await vi.advanceTimersByTimeAsync(BULK_QUEUE_MS - 1);
    expect(order).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(order).toEqual(['waiting one runs']);
    // The turn is still the stuck one's: a new request waits for it, not for the one that overtook.
    const later = inBulkTurn(request(), async () => {
      order.push('later one runs');
    });
    await settle();
    expect(order).toEqual(['waiting one runs']);
    stuck.resolve();
    await Promise.all([holding, later]);
    expect(order).toEqual(['waiting one runs', 'stuck one ends', 'later one runs']);
  });
});

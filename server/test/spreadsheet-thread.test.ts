import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FromWorkbook, ToWorkbook } from '../src/platform/spreadsheetThread';
import { SpreadsheetThread } from '../src/platform/spreadsheetThreads';
import { MAIN_THREAD_NICE } from '../src/platform/threadPriority';
import { threadStats } from './threads';

/**
 * The spreadsheet thread that writes exports and reads uploads: it runs at a lower priority than the rest of the
 * server, and its failures come back to the job as errors (the server goes on, and so do later jobs).
 */

const job = {
  kind: 'workbook',
  name: 'Sheet',
  columns: [{ key: 'a', header: 'A', width: 10 }],
} as const;

/** The nice value of each of this process's threads by thread id. */
const niceValues = () => new Map([...threadStats()].map(([tid, { nice }]) => [tid, nice]));

describe('the spreadsheet thread', () => {
  it.runIf(process.platform === 'linux')('runs at a lower priority than the main thread', async () => {
    const before = niceValues();
    const thread = await SpreadsheetThread.start<ToWorkbook, FromWorkbook>(job);
    const started = [...niceValues()].filter(([tid]) => !before.has(tid));
    thread.post({ finish: true });
    await thread.inbox.next();
    thread.release();
    // The thread was started for this job (none was idle yet), and so was nothing else.
    expect(started.length).toBeGreaterThan(0);
    expect(started.every(([, nice]) => nice === 10)).toBe(true);
    expect(niceValues().get(process.pid)).toBe(0);
    // libuv's pool (argon2) keeps the main thread's priority.
    expect([...before.values()].every((nice) => nice === 0)).toBe(true);
  });

  it('answers an error for a job it cannot do, and the next job gets a thread that works', async () => {
    const broken = await SpreadsheetThread.start<ToWorkbook, FromWorkbook>(job);
    // Not rows of values: writing them fails inside the thread.
    broken.post({ rows: [42 as unknown as unknown[]] });
    const answer = await broken.inbox.next();
    expect(answer).toEqual({ error: expect.stringMatching(/map is not a function/) });
    await broken.stop();

    const next = await SpreadsheetThread.start<ToWorkbook, FromWorkbook>(job);
    next.post({ rows: [['x']] });
    expect(await next.inbox.next()).toHaveProperty('bytes');
    next.post({ finish: true });
    const last = await next.inbox.next();
    expect('bytes' in last && last.bytes && Buffer.from(last.bytes).subarray(-22).readUInt32LE(0)).toBe(
      0x06054b50,
    );
    next.release();
  });

  it('a kept thread that ended while idle is not given the next job', async () => {
    const first = await SpreadsheetThread.start<ToWorkbook, FromWorkbook>(job);
    first.post({ finish: true });
    await first.inbox.next();
    first.release();
    // It ends while it waits for work (as if it had crashed).
    await first.stop();
    const next = await SpreadsheetThread.start<ToWorkbook, FromWorkbook>(job);
    expect(next).not.toBe(first);
    next.post({ rows: [['x']] });
    expect(await next.inbox.next()).toHaveProperty('bytes');
    next.post({ finish: true });
    await next.inbox.next();
    next.release();
  });

  it('a thread that ends in the middle of a job fails the job with a message, not the process', async () => {
    const thread = await SpreadsheetThread.start<ToWorkbook, FromWorkbook>(job);
    const answer = thread.inbox.next();
    await thread.stop();
    await expect(answer).rejects.toThrow(/spreadsheet thread ended before its work was done/);
  });
});

describe('sign-in first (platform/threadPriority.ts)', () => {
  it.runIf(process.platform === 'linux')(
    'the server lowers its main thread; the threads that hash passwords keep their priority',
    async () => {
      // In a process of its own: lowering this test process's thread would stay for the rest of its tests.
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/signInFirst.ts')],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(child.status, child.stderr).toBe(0);
      const report = JSON.parse(child.stdout.trim().split('\n').pop() ?? '[]') as {
        main: boolean;
        nice: number;
        ticks: number;
      }[];
      expect(report.find((t) => t.main)?.nice).toBe(MAIN_THREAD_NICE);
      // The fixture hashes until other threads have used 0.3 s of a core (30 ticks of 10 ms): nearly all on libuv's
      // pool, not the main thread.
      const hashing = report.filter((t) => !t.main && t.ticks > 0);
      expect(hashing.reduce((sum, t) => sum + t.ticks, 0)).toBeGreaterThanOrEqual(15);
      expect(hashing.every((t) => t.nice === 0)).toBe(true);
    },
  );
});

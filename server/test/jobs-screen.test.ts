import { JOB_KINDS, JOB_STATES, type JobState } from '@paydesk/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../src/config';
import { jobDefinitions } from '../src/jobs';
import { defineJob } from '../src/platform/jobs';
import { Client, type TestApp, testApp } from './helpers';

/**
 * What the Jobs screen relies on beyond the table toolkit: runs in every state side by side, sorted by state
 * in the order a run goes through them, and the progress of a running job in the "45% — text" form the
 * screen draws as a bar.
 */

const testConfig = loadConfig({ LOG_LEVEL: 'silent' });
const payload = z.strictObject({ n: z.number() });
const common = {
  payload,
  describe: (p: { n: number }) => `Item ${p.n}`,
  retryBackoff: false,
  timeoutSeconds: 60,
};

const done = defineJob({
  ...common,
  name: 'test.done',
  retryLimit: 0,
  retryDelaySeconds: 1,
  run: async () => 'Done',
});
const broken = defineJob({
  ...common,
  name: 'test.broken',
  retryLimit: 0,
  retryDelaySeconds: 1,
  run: async () => {
    throw new Error('The bank refused the file');
  },
});
// One retry, an hour away: the run waits in 'retry' for the whole test.
const flaky = defineJob({
  ...common,
  name: 'test.flaky',
  retryLimit: 1,
  retryDelaySeconds: 3600,
  run: async () => {
    throw new Error('Timed out talking to the bank');
  },
});
// Holds the run open (outside a transaction, so the embedded database stays free) until the test ends.
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});
const running = defineJob({
  ...common,
  name: 'test.running',
  retryLimit: 0,
  retryDelaySeconds: 1,
  transaction: 'none',
  run: async (ctx) => {
    ctx.progress(45, 'Reading rows');
    await held;
    return 'Read';
  },
});

interface JobRow {
  id: string;
  name: string;
  state: JobState;
  progress: string | null;
  summary: string;
  error: string | null;
}

let t: TestApp;
let admin: Client;
const query = async (body: object) => {
  const res = await admin.post('/api/app/jobs/query', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { rows: JobRow[]; total: number };
};

beforeAll(async () => {
  t = await testApp({
    jobs: { definitions: [...jobDefinitions(testConfig), done, broken, flaky, running], work: true },
  });
  admin = new Client(t.app);
  await admin.signin('admin@paydesk.local');
  await t.jobs.send(done, { n: 1 });
  await t.jobs.send(broken, { n: 2 });
  await t.jobs.send(flaky, { n: 3 });
  await t.jobs.send(running, { n: 4 });
  const settled = (rows: JobRow[]) =>
    ['completed', 'failed', 'retry', 'active'].every((s) => rows.some((r) => r.state === s)) &&
    rows.some((r) => r.progress?.includes('Reading rows'));
  for (let tries = 0; !settled((await query({})).rows); tries++) {
    if (tries > 600) throw new Error('the test jobs did not reach their states');
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  release();
  await t?.close();
});

describe('the Jobs screen table', () => {
  it('names every job the server declares with a title users read, not its code name', () => {
    const declared = jobDefinitions(testConfig, { liveDemo: true }).map((d) => d.name);
    expect(declared.length).toBeGreaterThan(10);
    expect(declared.filter((name) => !(name in JOB_KINDS))).toEqual([]);
  });

  it('sorts by state in the order a run goes through them, not by the states’ spelling', async () => {
    for (const desc of [false, true]) {
      const { rows } = await query({ sort: [{ id: 'state', desc }] });
      const expected = [...rows].sort((a, b) => JOB_STATES.indexOf(a.state) - JOB_STATES.indexOf(b.state));
      if (desc) expected.reverse();
      expect(rows.map((r) => r.state)).toEqual(expected.map((r) => r.state));
      expect(rows).toHaveLength(4);
    }
  });

  it('filters by state, with the states as the filter names them', async () => {
    const { rows } = await query({ filters: [{ id: 'state', kind: 'select', values: ['failed', 'retry'] }] });
    expect(rows.map((r) => [r.name, r.state, r.error]).sort()).toEqual([
      ['test.broken', 'failed', 'The bank refused the file'],
      ['test.flaky', 'retry', 'Timed out talking to the bank'],
    ]);
  });

  it('shows a running job’s progress as percent and text, which the screen draws as a bar', async () => {
    const { rows } = await query({ filters: [{ id: 'state', kind: 'select', values: ['active'] }] });
    expect(rows.map((r) => [r.progress, r.summary])).toEqual([['45% — Reading rows', 'Item 4']]);
    const status = await admin.get(`/api/app/jobs/status?id=${rows[0]?.id}`);
    expect(status.json()).toMatchObject({
      state: 'active',
      percent: 45,
      message: 'Reading rows',
      error: null,
    });
  });
});

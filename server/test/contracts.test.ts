import { addMonths, monthStart } from '@paydesk/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type TestApp, testApp } from './helpers';

/** Where PayDesk's calls had drifted from the spec's contract (issue 9 §8). */
let t: TestApp;
let sales: Client;
beforeAll(async () => {
  t = await testApp();
  sales = new Client(t.app);
  await sales.signin('sales@paydesk.local');
});
afterAll(async () => {
  await t?.close();
});

describe('/api/savereport takes the spec’s filter pairs', () => {
  const save = (name: string, filtr: unknown) =>
    sales.post('/api/savereport', {
      email: 'sales@paydesk.local',
      saveTextboxVal: name,
      filtr: JSON.stringify(filtr),
      visCol: JSON.stringify(['mid', 'dba', 'tx_cnt']),
      table: 'selfserve',
    });
  const load = async (name: string) =>
    JSON.parse(
      (await sales.post('/api/getreport', { email: 'sales@paydesk.local', name, table: 'selfserve' })).json()
        .filters,
    );

  it('reads each value by its column’s filter and stores the same view as the object form', async () => {
    const pairs = [
      { id: 'dba', value: 'Gol' },
      { id: 'tx_cnt', value: [100, ''] },
      { id: 'banknum', value: ['CBCAL', 'PPS'] },
      { id: 'merchprofile', value: 'PayLo' },
    ];
    const res = await save('From pairs', pairs);
    expect(res.statusCode, res.body).toBe(200);
    expect(await load('From pairs')).toEqual({
      filters: [
        { id: 'dba', kind: 'text', value: 'Gol' },
        { id: 'tx_cnt', kind: 'range', min: 100, max: null },
        { id: 'banknum', kind: 'select', values: ['CBCAL', 'PPS'] },
        { id: 'merchprofile', kind: 'select', values: ['PayLo'] },
      ],
      sort: [],
      search: '',
    });
    // A report saved in the object form still reads back as it was.
    const object = { filters: [{ id: 'dba', kind: 'text', value: 'Gol' }], sort: [], search: 'x' };
    expect((await save('Object form', object)).statusCode).toBe(200);
    expect(await load('Object form')).toEqual(object);
  });

  it('refuses a pair that does not fit its column, and changes nothing', async () => {
    for (const pairs of [
      [{ id: 'password', value: 'x' }],
      [{ id: 'tx_cnt', value: 'lots' }],
      [{ id: 'tx_cnt', value: [-5, null] }],
      [{ id: 'dba', value: ['a', 'b'] }],
      [{ id: 'dba' }],
    ]) {
      const res = await save('Refused', pairs);
      expect(res.statusCode, JSON.stringify(pairs)).toBe(400);
      expect(res.json().message).toMatch(/^filtr/);
    }
    const list = (
      await sales.post('/api/getallreports', { email: 'sales@paydesk.local', table: 'selfserve' })
    ).json();
    expect(list.map((r: { reportName: string }) => r.reportName)).not.toContain('Refused');
  });
});

describe('/api/finaverage takes a start date only, as the spec sends it', () => {
  it('runs the window to the current month when end is left out', async () => {
    const start = addMonths(monthStart(new Date()), -11);
    const withoutEnd = await sales.post('/api/finaverage', { filters: {}, start });
    expect(withoutEnd.statusCode, withoutEnd.body).toBe(200);
    const withEnd = await sales.post('/api/finaverage', { filters: {}, start, end: monthStart(new Date()) });
    expect(withoutEnd.json()).toEqual(withEnd.json());
  });
});

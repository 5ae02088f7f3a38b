import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCatalog } from '../src/platform/http';
import { Client, type TestApp, testApp } from './helpers';
import {
  HOSTILE_NUMBERS,
  HOSTILE_STRINGS,
  type Json,
  jsonSchema,
  leaves,
  replaced,
  sample,
} from './schemaSamples';

/**
 * A property test over every endpoint of the catalog: for each route, a body that its own schema accepts is
 * built from the schema, then one value at a time is replaced by something hostile (a NUL, year 0000, 9999-12-31,
 * numbers beyond any column, fractions, negatives). Whatever the route does with it, it must not answer 500.
 */
let t: TestApp;
let admin: Client;
async function freshAdmin() {
  await t.db.deleteFrom('signin_throttle').execute();
  await t.db.updateTable('users').set({ failed_signins: 0, locked_until: null }).execute();
  admin = new Client(t.app);
  await admin.signin('admin@paydesk.local');
}
beforeAll(async () => {
  t = await testApp();
  await freshAdmin();
});
afterAll(async () => {
  await t?.close();
});

// Calls that end the caller's own session are tried last, each with a fresh sign-in before.
const ENDS_SESSION = new Set(['/api/app/account/signout', '/api/logout']);

describe('hostile input on every endpoint', () => {
  it('the catalog lists every route with a declared scope', () => {
    const catalog = routeCatalog(t.app);
    expect(catalog.length).toBeGreaterThan(30);
    for (const entry of catalog)
      expect(['iso', 'staffOnly', 'platform', 'publicToken']).toContain(entry.scope);
  });

  it('never answers 500', async () => {
    const failures: string[] = [];
    const queryString = (body: Json) =>
      new URLSearchParams(
        Object.entries(body && typeof body === 'object' ? body : {}).map(([k, v]): [string, string] => [
          k,
          typeof v === 'object' ? JSON.stringify(v) : String(v),
        ]),
      ).toString();
    const call = async (method: 'GET' | 'POST', url: string, body: Json) => {
      const res =
        method === 'GET' ? await admin.get(`${url}?${queryString(body)}`) : await admin.post(url, body);
      if (res.statusCode >= 500)
        failures.push(
          `${method} ${url} ${JSON.stringify(body).slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 200)}`,
        );
      if (res.statusCode === 401 || res.statusCode === 429) await freshAdmin();
      return res;
    };
    for (const entry of routeCatalog(t.app)) {
      if (ENDS_SESSION.has(entry.url)) continue;
      const valid = sample(jsonSchema(entry.input));
      await call(entry.method, entry.url, valid);
      for (const shape of [null, [], 'text', 12] as Json[]) await call(entry.method, entry.url, shape);
      for (const leaf of leaves(valid).slice(0, 16)) {
        const hostile: Json[] = leaf.kind === 'string' ? HOSTILE_STRINGS : HOSTILE_NUMBERS;
        for (const value of hostile) await call(entry.method, entry.url, replaced(valid, leaf.path, value));
      }
      if (entry.query) {
        const query = sample(jsonSchema(entry.query)) as Record<string, Json>;
        for (const leaf of leaves(query)) {
          for (const value of HOSTILE_STRINGS) {
            const qs = new URLSearchParams({
              ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
              [String(leaf.path[0])]: value,
            });
            const res = await admin.post(`${entry.url}?${qs}`, {});
            if (res.statusCode >= 500) failures.push(`POST ${entry.url}?${qs} → ${res.statusCode}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('refuses a NUL anywhere with a readable 400', async () => {
    const res = await admin.post('/api/searchselfserve', { val: 'Ac\u0000me' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/control character/);
    const key = await admin.post('/api/searchselfserve', { 'v\u0000al': 'x' });
    expect(key.statusCode).toBe(400);
  });

  it('refuses dates outside 1900–2100 and month windows beyond the limit', async () => {
    for (const dt of ['0000-01-01', '9999-12-31']) {
      const res = await admin.post('/api/year', { dt });
      expect(res.statusCode, dt).toBe(400);
      expect(res.json().message).toMatch(/between 1900-01-01 and 2100-12-31/);
    }
    const wide = await admin.post('/api/finaverage', { filters: {}, start: '2000-01-01', end: '2100-12-01' });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().message).toMatch(/at most 240 months/);
  });
});

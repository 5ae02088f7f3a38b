import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type TestApp, testApp } from './helpers';

let t: TestApp;
/** An app whose database has lost a table, to provoke a 500. */
let broken: TestApp;
beforeAll(async () => {
  [t, broken] = await Promise.all([testApp(), testApp()]);
  await broken.db.schema.dropTable('outbox').cascade().execute();
});
afterAll(async () => {
  await Promise.all([t?.close(), broken?.close()]);
});

describe('bad input and errors', () => {
  it('answers 400 for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/app/account/signin',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'The request body is not valid JSON' });
  });

  it('answers 415 for a body that is not sent as JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/app/account/signin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a&password=b',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().success).toBe(false);
  });

  it('refuses input to calls that take none', async () => {
    const client = new Client(t.app);
    await client.signin('sales@paydesk.local');
    const res = await client.post('/api/app/account/validateUser', { sql: 'select 1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Unrecognized field: sql');
    expect((await client.post('/api/app/account/validateUser', [])).statusCode).toBe(400);
    expect((await client.post('/api/app/account/validateUser', {})).statusCode).toBe(200);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Not found' });
  });

  it('never shows internals in a 500', async () => {
    const client = new Client(broken.app);
    await client.signin('admin@paydesk.local');
    const res = await client.get('/api/app/outbox');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      message: 'Something went wrong on the server. Please try again.',
    });
    expect(res.body).not.toMatch(/outbox|relation|stack/i);
  });

  it('sets security headers', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/app/account/validateUser' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
  });

  it('treats SQL in input as text', async () => {
    const res = await new Client(t.app).post('/api/app/account/signin', {
      email: "x@y.z' or '1'='1",
      password: "' or 1=1 --",
    });
    expect(res.statusCode).toBe(400);
    const res2 = await new Client(t.app).post('/api/app/account/forgotpassword', { email: "a'--@b.com" });
    expect(res2.statusCode).toBe(200);
  });
});

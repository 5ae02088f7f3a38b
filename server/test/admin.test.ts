import { CAPABILITIES, type UserRow } from '@paydesk/domain';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, Client, type TestApp, testApp } from './helpers';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  t = await testApp();
  admin = new Client(t.app);
  await admin.signin('admin@paydesk.local');
});
afterAll(async () => {
  await t?.close();
});

async function userRow(email: string): Promise<UserRow> {
  const rows: UserRow[] = (await admin.get('/api/app/users')).json();
  const row = rows.find((r) => r.email === email);
  if (!row) throw new Error(`no user ${email}`);
  return row;
}

describe('users administration', () => {
  it('lists users with department, capabilities and ISO binding', async () => {
    const partner = await userRow('partner@summitpayments.example');
    expect(partner).toMatchObject({
      department: 'sales',
      isoName: 'Summit Payment Group',
      active: true,
      locked: false,
    });
    const fin = await userRow('finance.admin@paydesk.local');
    expect(fin.capabilities).toEqual([
      'ach_edit',
      'pci_ach_billing',
      'pci_fees',
      'pci_historic_edit',
      'pci_restricted',
    ]);
  });

  it('sets department, capabilities, ISO and unlocks; the change applies to the next request and is audited', async () => {
    const id = await addUser(t.db, 'promote@paydesk.local', 'sales');
    const user = new Client(t.app);
    await user.signin('promote@paydesk.local');
    expect((await user.get('/api/app/users')).statusCode).toBe(403);
    await t.db
      .updateTable('users')
      .set({ locked_until: new Date(Date.now() + 60_000) })
      .where('id', '=', id)
      .execute();
    const isos = (await admin.get('/api/app/isos')).json() as { id: number; name: string }[];
    const harbor = isos.find((i) => i.name === 'Harborline Merchant Services');
    const res = await admin.post('/api/app/users/update', {
      id,
      department: 'admin',
      capabilities: ['bi', 'leads'],
      active: true,
      locked: false,
      isoId: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      department: 'admin',
      capabilities: ['bi', 'leads'],
      locked: false,
      isoName: null,
    });
    expect((await user.post('/api/app/account/validateUser')).json().user).toMatchObject({
      department: 'admin',
      capabilities: ['bi', 'leads'],
      iso: null,
    });
    const bound = await admin.post('/api/app/users/update', {
      id,
      department: 'finance',
      capabilities: [],
      active: true,
      isoId: harbor?.id ?? null,
    });
    expect(bound.statusCode).toBe(200);
    expect((await user.post('/api/app/account/validateUser')).json().user).toMatchObject({
      department: 'finance',
      capabilities: [],
      iso: { id: harbor?.id, name: 'Harborline Merchant Services' },
    });
    const log = (await admin.get('/api/app/audit?page=1&pageSize=20')).json();
    const entry = log.rows.find(
      (r: { action: string; subject: string; details: { department?: string[] } }) =>
        r.action === 'user.update' &&
        r.subject === 'promote@paydesk.local' &&
        r.details.department?.[1] === 'admin',
    );
    expect(entry.actorEmail).toBe('admin@paydesk.local');
    expect(entry.details.department).toEqual(['sales', 'admin']);
    expect(entry.details.capabilities).toEqual([[], ['bi', 'leads']]);
  });

  it('deactivating a user ends their sessions', async () => {
    const id = await addUser(t.db, 'leaver@paydesk.local', 'finance');
    const user = new Client(t.app);
    await user.signin('leaver@paydesk.local');
    const res = await admin.post('/api/app/users/update', {
      id,
      department: 'finance',
      capabilities: [],
      active: false,
      isoId: null,
    });
    expect(res.statusCode).toBe(200);
    expect((await user.post('/api/app/account/validateUser')).statusCode).toBe(401);
  });

  it('keeps at least one admin and refuses bad input', async () => {
    const me = await userRow('admin@paydesk.local');
    const self = await admin.post('/api/app/users/update', {
      id: me.id,
      department: 'sales',
      capabilities: [],
      active: true,
      isoId: null,
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/your own admin access/);
    const unknownCap = await admin.post('/api/app/users/update', {
      id: me.id,
      department: 'admin',
      capabilities: ['root'],
      active: true,
      isoId: null,
    });
    expect(unknownCap.statusCode).toBe(400);
    const other = await addUser(t.db, 'unbound@paydesk.local', 'sales');
    const noIso = await admin.post('/api/app/users/update', {
      id: other,
      department: 'sales',
      capabilities: [],
      active: true,
      isoId: 99999,
    });
    expect(noIso.statusCode).toBe(400);
    expect(noIso.json().message).toBe('No such ISO');
    const noUser = await admin.post('/api/app/users/update', {
      id: 99999,
      department: 'admin',
      capabilities: [],
      active: true,
      isoId: null,
    });
    expect(noUser.statusCode).toBe(404);
    expect((await userRow('admin@paydesk.local')).capabilities).toHaveLength(CAPABILITIES.length);
  });

  it('refuses the admin calls to every non-admin department', async () => {
    for (const email of [
      'sales.admin@paydesk.local',
      'finance.admin@paydesk.local',
      'sales@paydesk.local',
      'finance@paydesk.local',
    ]) {
      const c = new Client(t.app);
      await c.signin(email);
      expect((await c.get('/api/app/users')).statusCode, email).toBe(403);
      expect((await c.get('/api/app/audit')).statusCode, email).toBe(403);
      expect((await c.post('/api/app/audit/query', {})).statusCode, email).toBe(403);
      expect((await c.post('/api/app/audit/export', { columns: ['at'] })).statusCode, email).toBe(403);
      expect((await c.get('/api/app/outbox')).statusCode, email).toBe(403);
      const upd = await c.post('/api/app/users/update', {
        id: 1,
        department: 'admin',
        capabilities: [],
        active: true,
        isoId: null,
      });
      expect(upd.statusCode, email).toBe(403);
    }
  });

  it('pages the audit log and validates the query', async () => {
    const page = (await admin.get('/api/app/audit?page=1&pageSize=2')).json();
    expect(page.rows).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    expect((await admin.get('/api/app/audit?pageSize=5000')).statusCode).toBe(400);
    expect((await admin.get('/api/app/audit?sort=id')).statusCode).toBe(400);
  });

  it('queries the audit log as a table: by user, action and date, in words, newest first', async () => {
    // An entry of each kind the filters must tell apart: a refused sign-in and a department change.
    await new Client(t.app).post('/api/app/account/signin', {
      email: 'finance@paydesk.local',
      password: 'Wrong-Pass-1!',
    });
    const sales = await userRow('sales@paydesk.local');
    await admin.post('/api/app/users/update', {
      id: sales.id,
      department: 'finance',
      capabilities: sales.capabilities,
      active: true,
      isoId: null,
    });
    const { rows: raw } = await sql<{ actor_email: string | null; action: string; at: Date }>`
      select actor_email, action, at from audit_log`.execute(t.db);
    const ask = (body: Record<string, unknown>) => admin.post('/api/app/audit/query', body);

    const byAction = (
      await ask({ filters: [{ id: 'action', kind: 'select', values: ['user.update'] }], pageSize: 200 })
    ).json();
    expect(byAction.total).toBe(raw.filter((r) => r.action === 'user.update').length);
    expect(byAction.rows.every((r: { action: string }) => r.action === 'user.update')).toBe(true);
    expect(byAction.rows[0].description).toBe(
      'Changed the department of sales@paydesk.local from Sales to Finance',
    );
    const times = byAction.rows.map((r: { at: string }) => r.at);
    expect(times).toEqual([...times].sort().reverse());

    const byUser = (
      await ask({ filters: [{ id: 'actor', kind: 'text', value: 'ADMIN@' }], pageSize: 200 })
    ).json();
    expect(byUser.total).toBe(raw.filter((r) => r.actor_email?.startsWith('admin@')).length);
    expect(byUser.total).toBeGreaterThan(0);

    const refused = (
      await ask({
        filters: [
          { id: 'action', kind: 'select', values: ['signin.failure'] },
          { id: 'subject', kind: 'text', value: 'finance@' },
        ],
      })
    ).json();
    expect(refused.rows[0].description).toBe('Sign-in as finance@paydesk.local refused: wrong password');

    const today = new Date().toISOString().slice(0, 10);
    const dated = (
      await ask({ filters: [{ id: 'at', kind: 'dateRange', from: today, to: today }], pageSize: 200 })
    ).json();
    expect(dated.total).toBe(raw.filter((r) => new Date(r.at).toISOString().startsWith(today)).length);
    const past = (
      await ask({ filters: [{ id: 'at', kind: 'dateRange', from: '2001-01-01', to: '2001-12-31' }] })
    ).json();
    expect(past.total).toBe(0);

    for (const bad of [
      { filters: [{ id: 'action', kind: 'select', values: ['drop.table'] }] },
      { filters: [{ id: 'details', kind: 'text', value: 'x' }] },
      { sort: [{ id: 'description', desc: false }] },
      { pageSize: 10 },
    ]) {
      expect((await ask(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('exports the filtered audit log with the entries in words', async () => {
    const res = await admin.post('/api/app/audit/export', {
      filters: [{ id: 'action', kind: 'select', values: ['signin.success'] }],
      columns: ['at', 'actor', 'description'],
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Time', 'User', 'What happened']);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.slice(1).every((r) => r[2] === 'Signed in')).toBe(true);
    expect(String(rows[1]?.[0])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  });

  it('shows the outbox to the admin', async () => {
    await new Client(t.app).post('/api/app/account/forgotpassword', { email: 'finance@paydesk.local' });
    const mails = (await admin.get('/api/app/outbox')).json();
    expect(mails[0]).toMatchObject({ to: 'finance@paydesk.local', subject: 'Reset your PayDesk password' });
    expect(mails[0].text).toMatch(/\/reset\?code=/);
  });
});

describe('partner staff (users bound to an ISO)', () => {
  it('cannot be given a staff department or a capability, by the API or behind its back', async () => {
    const id = await addUser(t.db, 'iso.staff@paydesk.local', 'sales');
    const isos = (await admin.get('/api/app/isos')).json() as { id: number; name: string }[];
    const isoId = isos[0]?.id ?? null;
    for (const [department, capabilities] of [
      ['admin', []],
      ['sales_admin', []],
      ['finance_admin', []],
      ['sales', ['leads']],
    ] as const) {
      const res = await admin.post('/api/app/users/update', {
        id,
        department,
        capabilities,
        active: true,
        isoId,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/bound to an ISO/);
    }
    expect((await userRow('iso.staff@paydesk.local')).isoName).toBeNull();
    // The database holds the same rule for any code path that skips the API.
    await expect(
      t.db
        .updateTable('users')
        .set({ department: 'admin', partner_id: isoId })
        .where('id', '=', id)
        .execute(),
    ).rejects.toThrow();
    await t.db.updateTable('users').set({ partner_id: isoId }).where('id', '=', id).execute();
    await expect(
      t.db.insertInto('user_capabilities').values({ user_id: id, capability: 'ach_edit' }).execute(),
    ).rejects.toThrow();
  });

  it('are refused every staff-only and administration call', async () => {
    const partner = new Client(t.app);
    await partner.signin('partner@summitpayments.example');
    for (const [method, url] of [
      ['GET', '/api/app/users'],
      ['GET', '/api/app/audit?page=1&pageSize=20'],
      ['GET', '/api/app/outbox'],
      ['POST', '/api/uploadadjustments'],
    ] as const) {
      const res =
        method === 'GET'
          ? await partner.get(url)
          : await partner.post(url, {
              records: [['2026-10', '7410000001', 'Fee', 'x', 1]],
              filename: 'a.xlsx',
            });
      expect(res.statusCode, url).toBe(403);
    }
    // Their own account stays theirs.
    expect((await partner.post('/api/app/account/validateUser')).statusCode).toBe(200);
  });
});

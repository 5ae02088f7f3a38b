import { partnerDirectoryRow, partnerEndpoints } from '@paydesk/domain';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importFromCrm, partnersImportJob } from '../src/areas/partners/importJob';
import type { Db } from '../src/db/connect';
import { type Crm, type CrmAccount, type CrmGroup, type NewCrmGroup, SandboxCrm } from '../src/platform/crm';
import type { Jobs } from '../src/platform/jobs';
import { addUser, Client, startTestJobs, type TestApp, testApp } from './helpers';

/** The sandbox, or a CRM that fails after its first page of groups (a network error halfway). */
class TestCrm implements Crm {
  readonly kind = 'sandbox';
  readonly description = 'test CRM';
  failHalfway = false;
  private readonly sandbox = new SandboxCrm();
  accounts(db: Db): AsyncIterable<CrmAccount[]> {
    return this.sandbox.accounts(db);
  }
  async *groups(db: Db): AsyncIterable<CrmGroup[]> {
    for await (const page of this.sandbox.groups(db)) {
      yield page.slice(0, Math.ceil(page.length / 2));
      if (this.failHalfway) throw new Error('CRM connection reset');
      yield page.slice(Math.ceil(page.length / 2));
    }
  }
  createGroup(db: Db, group: NewCrmGroup) {
    return this.sandbox.createGroup(db, group);
  }
  setRevShare(db: Db, id: string, share: string) {
    return this.sandbox.setRevShare(db, id, share);
  }
  leads(db: Db) {
    return this.sandbox.leads(db);
  }
  lead(db: Db, leadId: string) {
    return this.sandbox.lead(db, leadId);
  }
  convertLead(db: Db, leadId: string) {
    return this.sandbox.convertLead(db, leadId);
  }
  accountUrl() {
    return this.sandbox.accountUrl();
  }
}

let t: TestApp;
let worker: Jobs;
const crm = new TestCrm();
const admin = () => signedIn('admin@paydesk.local');
const clients = new Map<string, Client>();
async function signedIn(email: string) {
  let c = clients.get(email);
  if (!c) {
    c = new Client(t.app);
    await c.signin(email);
    clients.set(email, c);
  }
  return c;
}

/** Everything an import or an XLSX import could change, straight from the tables. */
async function snapshot(db: Db) {
  const partners = await sql`select * from partners order by id`.execute(db);
  const groups = await sql`select * from groups order by id`.execute(db);
  return { partners: partners.rows, groups: groups.rows };
}

beforeAll(async () => {
  t = await testApp();
  // A worker with the test CRM; the app itself only queues.
  worker = await startTestJobs(t.connected, { work: true, definitions: [partnersImportJob(crm)] });
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

describe('reading partners', () => {
  it('GetPartners: one row per account-group pair, the spec fields, rev share as a fraction', async () => {
    const res = await (await admin()).get('/api/partners/GetPartners');
    expect(res.statusCode).toBe(200);
    const rows = res.json();
    // PostgreSQL writes this answer as JSON (JsonText): it must fit the endpoint's schema with nothing stripped.
    expect(partnerEndpoints.getPartners.output.parse(rows)).toEqual(rows);
    const order = await sql<{ accountid: string; groupid: string | null }>`
      select p.account_id as accountid, g.group_id as groupid from partners p left join groups g on g.partner_id = p.id
      order by p.account_name, p.account_id, g.effective_date, g.group_id`.execute(t.db);
    expect(rows.map((r: { accountid: string; groupid: string | null }) => [r.accountid, r.groupid])).toEqual(
      order.rows.map((r) => [r.accountid, r.groupid]),
    );
    const { rows: raw } = await sql<{ n: number }>`
      select coalesce(sum(greatest(1, (select count(*) from groups g where g.partner_id = p.id))), 0)::int as n
      from partners p`.execute(t.db);
    expect(rows.length).toBe(raw[0]?.n);
    const group = await t.db
      .selectFrom('groups as g')
      .innerJoin('partners as p', 'p.id', 'g.partner_id')
      .select([
        'g.group_id',
        'g.rev_share',
        'g.association_number',
        'p.account_id',
        'p.rm',
        'p.billing_street',
      ])
      .orderBy('g.id')
      .executeTakeFirstOrThrow();
    const row = rows.find((r: { groupid: string }) => r.groupid === group.group_id);
    expect(row).toMatchObject({
      accountid: group.account_id,
      rm: group.rm,
      billingstreet: group.billing_street,
      association_number: group.association_number,
      rev_share: Number(group.rev_share),
    });
    expect(Object.keys(row).sort()).toEqual(
      [
        'accountid',
        'accountname',
        'rm',
        'recruiter',
        'isc',
        'liability',
        'datesigned',
        'fullname',
        'processingemail',
        'phone',
        'billingstreet',
        'billingcity',
        'billingstate',
        'billingzip',
        'operationemail',
        'status',
        'group_sf_id',
        'groupname',
        'groupid',
        'association_number',
        'rev_share',
        'bank',
        'profile',
        'processor',
        'effectivedate',
      ].sort(),
    );
  });

  it('GetPartners answers a write made outside this server at once (the cached answer follows the tables)', async () => {
    const c = await admin();
    const before = (await c.get('/api/partners/GetPartners')).json();
    const group = await t.db
      .selectFrom('groups')
      .select(['id', 'group_id', 'rev_share'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const changed = Number(group.rev_share) === 0.42 ? 0.43 : 0.42;
    try {
      // As another instance on the same database would: straight to the table, not through this app.
      await t.db
        .updateTable('groups')
        .set({ rev_share: String(changed) })
        .where('id', '=', group.id)
        .execute();
      const after = (await c.get('/api/partners/GetPartners')).json();
      const row = after.find((r: { groupid: string }) => r.groupid === group.group_id);
      expect(row.rev_share).toBe(changed);
      expect(after.length).toBe(before.length);
    } finally {
      await t.db
        .updateTable('groups')
        .set({ rev_share: group.rev_share })
        .where('id', '=', group.id)
        .execute();
    }
    expect((await c.get('/api/partners/GetPartners')).json()).toEqual(before);
  });

  it('/api/partner has the partner row fields; /api/searchpartner matches by prefix and keeps accounts whole', async () => {
    const c = await admin();
    const all = (await c.post('/api/partner')).json();
    // The partner rows are the directory's rows without the group's Salesforce ID, association number and rev
    // share, in its order, each as the contract writes it.
    const whole = (await c.get('/api/partners/GetPartners')).json() as Record<string, unknown>[];
    expect(all).toEqual(
      whole.map(({ group_sf_id: _s, association_number: _a, rev_share: _r, ...row }) => row),
    );
    expect(z.array(partnerDirectoryRow.strict()).parse(all)).toEqual(all);
    expect(Object.keys(all[0])).toEqual(Object.keys(partnerDirectoryRow.shape));
    const summit = await t.db
      .selectFrom('partners')
      .select(['id', 'account_id'])
      .where('account_name', '=', 'Summit Payment Group')
      .executeTakeFirstOrThrow();
    const groups = await t.db
      .selectFrom('groups')
      .select('group_id')
      .where('partner_id', '=', summit.id)
      .execute();
    const found = (await c.post('/api/searchpartner', { val: 'summit pay' })).json();
    expect(z.array(partnerDirectoryRow.strict()).parse(found)).toEqual(found);
    expect(Object.keys(found[0])).toEqual(Object.keys(partnerDirectoryRow.shape));
    expect(new Set(found.map((r: { accountname: string }) => r.accountname))).toEqual(
      new Set(['Summit Payment Group']),
    );
    expect(found.map((r: { groupid: string }) => r.groupid).sort()).toEqual(
      groups.map((g) => g.group_id).sort(),
    );
    // By a group ID: the whole account comes back.
    const byGroup = (await c.post('/api/searchpartner', { val: groups[0]?.group_id })).json();
    expect(byGroup.filter((r: { accountid: string }) => r.accountid === summit.account_id).length).toBe(
      groups.length,
    );
    expect((await c.post('/api/searchpartner', { val: '' })).json().length).toBe(all.length);
    // The oracle: each account whose name, contact name or RM, or one of whose groups' names or IDs, starts with
    // the text (any case), with all its rows, tested here on the whole directory.
    const directory = (await c.get('/api/partners/GetPartners')).json() as {
      accountid: string;
      accountname: string;
      fullname: string | null;
      rm: string | null;
      groupname: string | null;
      groupid: string | null;
    }[];
    const starts = (v: string | null, text: string) => (v ?? '').toLowerCase().startsWith(text.toLowerCase());
    for (const val of ['Su', 'a', 'sm', ' pa ', (groups[0]?.group_id ?? '').slice(0, 3), 'zzz', '_']) {
      const text = val.trim();
      const ids = new Set(
        directory
          .filter((r) =>
            [r.accountname, r.fullname, r.rm, r.groupname, r.groupid].some((v) => starts(v, text)),
          )
          .map((r) => r.accountid),
      );
      const res = (await c.post('/api/searchpartner', { val })).json() as { accountid: string }[];
      expect(
        res.map((r) => r.accountid),
        val,
      ).toEqual(directory.filter((r) => ids.has(r.accountid)).map((r) => r.accountid));
      if (val === 'a') expect(ids.size).toBeGreaterThan(1);
    }
    expect((await c.post('/api/searchpartner', { val: 'x'.repeat(101) })).statusCode).toBe(400);
    expect((await c.post('/api/searchpartner', { val: '%' })).json()).toEqual([]);
  });

  it('the table: status as shown, prefix filters, page sizes', async () => {
    const c = await admin();
    const res = await c.post('/api/app/partners/query', {
      filters: [{ id: 'status', kind: 'select', values: ['Dead'] }],
      pageSize: 1000,
    });
    expect(res.statusCode).toBe(200);
    const { rows: raw } = await sql<{ n: number }>`select count(*)::int as n from partners
      where status not in ('Active', 'Inactive')`.execute(t.db);
    expect(res.json().total).toBe(raw[0]?.n);
    const rm = await c.post('/api/app/partners/query', {
      filters: [{ id: 'rm', kind: 'text', value: 'dana' }],
    });
    const { rows: dana } = await sql<{
      n: number;
    }>`select count(*)::int as n from partners where rm like 'Dana%'`.execute(t.db);
    expect(rm.json().total).toBe(dana[0]?.n);
    expect(rm.json().rows.length).toBeLessThanOrEqual(15);
    const names = rm.json().rows.map((r: { accountname: string }) => r.accountname);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect((await c.post('/api/app/partners/query', { pageSize: 20 })).statusCode).toBe(400);
  });

  it('the account detail and a missing account', async () => {
    const c = await admin();
    const p = await t.db
      .selectFrom('partners')
      .select(['id', 'account_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const res = await c.get(`/api/app/partners/account?accountid=${p.account_id}`);
    expect(res.statusCode).toBe(200);
    const n = await t.db
      .selectFrom('groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('partner_id', '=', p.id)
      .executeTakeFirstOrThrow();
    expect(res.json().groups.length).toBe(Number(n.n));
    expect((await c.get('/api/app/partners/account?accountid=nope')).statusCode).toBe(404);
  });
});

describe('ISO-bound users', () => {
  it('see only their own account and cannot edit; may start the CRM import without seeing its counts', async () => {
    const c = await signedIn('partner@summitpayments.example');
    const rows = (await c.get('/api/partners/GetPartners')).json();
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r: { accountname: string }) => r.accountname))).toEqual(
      new Set(['Summit Payment Group']),
    );
    expect(
      new Set((await c.post('/api/partner')).json().map((r: { accountname: string }) => r.accountname)),
    ).toEqual(new Set(['Summit Payment Group']));
    expect((await c.post('/api/app/partners/query', {})).json().total).toBe(1);
    const other = await t.db
      .selectFrom('partners')
      .select('account_id')
      .where('account_name', '<>', 'Summit Payment Group')
      .executeTakeFirstOrThrow();
    expect((await c.get(`/api/app/partners/account?accountid=${other.account_id}`)).statusCode).toBe(404);
    const groupId = rows[0].groupid;
    expect(
      (await c.post('/api/partners/UpdateRevShare', { group_id: groupId, revshare: 50 })).statusCode,
    ).toBe(403);
    expect(
      (
        await c.post('/api/partners/AddGroupId', {
          accountid: rows[0].accountid,
          bank: 'CBCAL',
          effectivedate: '2026-01-01',
          groupname: 'X',
          revshare: 50,
        })
      ).statusCode,
    ).toBe(403);
    expect((await c.get('/api/partners/GetLastGroupIds')).statusCode).toBe(403);
    // The CRM import is everyone's (spec §4): partner staff may start it, and while it is queued a second click
    // joins the same run; they see its state but not the directory-wide counts. The worker is held meanwhile, so
    // the run is still queued when the second click and the status are read, however fast the machine.
    await worker.stop();
    let uuid: string;
    try {
      const started = await c.post('/api/importSFPartners');
      expect(started.statusCode).toBe(200);
      uuid = started.json().uuid;
      expect((await c.post('/api/importSFPartners')).json().uuid).toBe(uuid);
      const [status] = (await c.post('/api/checkLambdaRuntime', { uuid })).json();
      expect(status).toMatchObject({ uuid, runtime_status: 'started', message: null, result: null });
    } finally {
      worker = await startTestJobs(t.connected, { work: true, definitions: [partnersImportJob(crm)] });
    }
    // Finished, the counts stay hidden from partner staff.
    let done: { runtime_status: string } | undefined;
    for (let i = 0; i < 240 && done?.runtime_status !== 'finished'; i++) {
      if (i) await new Promise((r) => setTimeout(r, 250));
      [done] = (await c.post('/api/checkLambdaRuntime', { uuid })).json();
    }
    expect(done).toMatchObject({ uuid, runtime_status: 'finished', message: null, result: null });
    const file = await c.post('/api/partner/export');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    expect(book.getWorksheet('Partners')?.rowCount).toBe(2);
  });
});

describe('editing', () => {
  const anAccount = () =>
    t.db
      .selectFrom('partners')
      .select(['id', 'account_id', 'account_name'])
      .where('account_name', '=', 'Keystone Card Solutions')
      .executeTakeFirstOrThrow();

  it('needs partners_edit (403 without it)', async () => {
    const c = await signedIn('sales@paydesk.local');
    const g = await t.db.selectFrom('groups').select('group_id').executeTakeFirstOrThrow();
    const before = await snapshot(t.db);
    expect(
      (await c.post('/api/partners/UpdateRevShare', { group_id: g.group_id, revshare: 12 })).statusCode,
    ).toBe(403);
    const p = await anAccount();
    expect(
      (
        await c.post('/api/partners/AddGroupId', {
          accountid: p.account_id,
          bank: 'CBCAL',
          effectivedate: '2026-01-01',
          groupname: 'X',
          revshare: 50,
        })
      ).statusCode,
    ).toBe(403);
    expect((await c.get('/api/partners/GetLastGroupIds')).statusCode).toBe(403);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('UpdateRevShare: 0–100 with two decimals, stored as a fraction, with history and audit', async () => {
    const c = await signedIn('sales.admin@paydesk.local');
    const g = await t.db
      .selectFrom('groups')
      .select(['id', 'group_id', 'rev_share', 'group_sf_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const bad: [unknown, RegExp][] = [
      [100.01, /between 0 and 100/],
      [-1, /between 0 and 100/],
      [12.345, /two decimals/],
      ['abc', /must be a number/],
      ['', /must be a number/],
      [null, /must be a number/],
      [true, /must be a number/],
    ];
    for (const [revshare, message] of bad) {
      const res = await c.post('/api/partners/UpdateRevShare', { group_id: g.group_id, revshare });
      expect(res.statusCode, String(revshare)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(
      (await t.db.selectFrom('groups').select('rev_share').where('id', '=', g.id).executeTakeFirstOrThrow())
        .rev_share,
    ).toBe(g.rev_share);
    const ok = await c.post('/api/partners/UpdateRevShare', { group_id: g.group_id, revshare: '55.55' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().rev_share).toBe(0.5555);
    const stored = await t.db
      .selectFrom('groups')
      .select('rev_share')
      .where('id', '=', g.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.rev_share)).toBe(0.5555);
    const crmRow = await t.db
      .selectFrom('crm_groups')
      .select('rev_share')
      .where('group_sf_id', '=', g.group_sf_id)
      .executeTakeFirstOrThrow();
    expect(Number(crmRow.rev_share)).toBe(0.5555);
    const history = (await c.get(`/api/app/partners/revShareHistory?group_id=${g.group_id}`)).json();
    expect(history[0]).toMatchObject({
      old_rev_share: Number(g.rev_share),
      new_rev_share: 0.5555,
      changed_by: 'sales.admin@paydesk.local',
    });
    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'partner.rev_share')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.actor_email).toBe('sales.admin@paydesk.local');
    expect(entry.details).toMatchObject({ groupId: g.group_id, to: '0.5555' });
    expect((await c.post('/api/partners/UpdateRevShare', { group_id: 'nope', revshare: 5 })).statusCode).toBe(
      404,
    );
    expect(
      (await c.post('/api/partners/UpdateRevShare', { group_id: g.group_id, revshare: 0 })).statusCode,
    ).toBe(200);
    expect(
      (await c.post('/api/partners/UpdateRevShare', { group_id: g.group_id, revshare: 100 })).statusCode,
    ).toBe(200);
  });

  it('AddGroupId allocates the bank’s next numbers, creates the group in the CRM and answers it', async () => {
    const c = await signedIn('sales.admin@paydesk.local');
    const p = await anAccount();
    const seq = await t.db
      .selectFrom('group_id_sequences')
      .selectAll()
      .where('bank', '=', 'Esquire')
      .executeTakeFirstOrThrow();
    const res = await c.post('/api/partners/AddGroupId', {
      accountid: p.account_id,
      bank: 'Esquire',
      effectivedate: '2026-03-01',
      groupname: 'Keystone Esquire',
      profile: 'PayLo',
      revshare: 72.5,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      groupid: String(seq.next_group_id),
      association_number: String(seq.next_association),
      processor: 'TSYS',
      rev_share: 0.725,
    });
    const group = await t.db
      .selectFrom('groups')
      .selectAll()
      .where('group_id', '=', body.groupid)
      .executeTakeFirstOrThrow();
    expect(group).toMatchObject({
      partner_id: p.id,
      group_sf_id: body.group_sf_id,
      bank: 'Esquire',
      profile: 'PayLo',
      processor: 'TSYS',
    });
    const inCrm = await t.db
      .selectFrom('crm_groups')
      .selectAll()
      .where('group_sf_id', '=', body.group_sf_id)
      .executeTakeFirstOrThrow();
    expect(inCrm).toMatchObject({ account_id: p.account_id, group_id: body.groupid });
    const last = (await c.get('/api/partners/GetLastGroupIds')).json();
    expect(Object.keys(last).sort()).toEqual(['CBCAL', 'Chesapeake', 'Esquire']);
    expect(last.Esquire[0]).toEqual({
      accountname: p.account_name,
      group_id: body.groupid,
      association_number: body.association_number,
      groupname: 'Keystone Esquire',
    });
    const bad = [
      [{ bank: 'PPS' }, /Bank must be one of/],
      [{ effectivedate: '' }, /YYYY-MM-DD/],
      [{ groupname: '  ' }, /Group name is required/],
      [{ revshare: 101 }, /between 0 and 100/],
      [{ profile: 'Unassigned' }, /Profile must be one of/],
    ] as const;
    for (const [change, message] of bad) {
      const r = await c.post('/api/partners/AddGroupId', {
        accountid: p.account_id,
        bank: 'CBCAL',
        effectivedate: '2026-03-01',
        groupname: 'G',
        revshare: 50,
        ...change,
      });
      expect(r.statusCode, JSON.stringify(change)).toBe(400);
      expect(r.json().message).toMatch(message);
    }
    const unknown = await c.post('/api/partners/AddGroupId', {
      accountid: 'nope',
      bank: 'CBCAL',
      effectivedate: '2026-03-01',
      groupname: 'G',
      revshare: 50,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('two editors adding at once get different, consecutive group IDs', async () => {
    const [a, b] = [await signedIn('sales.admin@paydesk.local'), await signedIn('admin@paydesk.local')];
    const p = await anAccount();
    const body = (name: string) => ({
      accountid: p.account_id,
      bank: 'Chesapeake',
      effectivedate: '2026-04-01',
      groupname: name,
      revshare: 60,
    });
    const [r1, r2] = await Promise.all([
      a.post('/api/partners/AddGroupId', body('A')),
      b.post('/api/partners/AddGroupId', body('B')),
    ]);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    const ids = [Number(r1.json().groupid), Number(r2.json().groupid)].sort();
    expect(ids[1]).toBe((ids[0] ?? 0) + 1);
    const assoc = [Number(r1.json().association_number), Number(r2.json().association_number)].sort();
    expect(assoc[1]).toBe((assoc[0] ?? 0) + 1);
  });
});

describe('import from the CRM', () => {
  async function runImport(c: Client) {
    const start = await c.post('/api/importSFPartners');
    expect(start.statusCode).toBe(200);
    const { uuid } = start.json();
    for (let i = 0; i < 240; i++) {
      const res = await c.post('/api/checkLambdaRuntime', { uuid });
      expect(res.statusCode).toBe(200);
      const [status] = res.json();
      if (status.runtime_status !== 'started') return status;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('the import did not end');
  }

  it('on demo data changes nothing; applies the CRM’s changes once; a second run changes nothing', async () => {
    const c = await signedIn('sales@paydesk.local');
    // Two accounts whose groups merchants use, active in the CRM and here. An ISO is Active with an approval this
    // month, so on a month's first day the demo may have almost none: they are made so on both sides alike.
    const { rows: picked } = await sql<{ account_id: string }>`select a.account_id from crm_accounts a
      where exists (select 1 from groups g join partners p on p.id = g.partner_id
        where p.account_id = a.account_id and exists (select 1 from merchants m where m.group_id = g.group_id))
      order by a.account_id desc limit 2`.execute(t.db);
    expect(picked).toHaveLength(2);
    const ids = picked.map((r) => r.account_id);
    await sql`update crm_accounts set status = 'Active' where account_id in (${sql.join(ids)})`.execute(t.db);
    await sql`update partners set status = 'Active' where account_id in (${sql.join(ids)})`.execute(t.db);
    const first = await runImport(c);
    expect(first.runtime_status).toBe('finished');
    expect(first.result).toMatch(
      /0 added, 0 changed, 0 marked inactive; groups: 0 added, 0 changed, 0 removed/,
    );

    // The CRM changes: a new account with a group, a renamed account, a changed rev share, an account gone.
    const [renamed, gone] = await t.db
      .selectFrom('crm_accounts')
      .select('account_id')
      .where('status', '=', 'Active')
      .orderBy('account_id', 'desc')
      .limit(2)
      .execute();
    await sql`insert into crm_accounts (account_id, account_name, status, isc) values ('001NEW000000001', 'Zephyr Payments', 'Active', 0.75)`.execute(
      t.db,
    );
    await sql`insert into crm_groups values ('a0GNEW00000001', '001NEW000000001', 'Zephyr', '999001', '9999001', 0.75, 'CBCAL', 'Traditional', 'TSYS', '2026-01-01')`.execute(
      t.db,
    );
    await sql`update crm_accounts set account_name = account_name || ' LLC' where account_id = ${renamed?.account_id}`.execute(
      t.db,
    );
    // A group of another account than the new one and the one the CRM drops.
    const changedGroup = await t.db
      .selectFrom('crm_groups')
      .select(['group_sf_id', 'group_id'])
      .where('account_id', 'not in', ['001NEW000000001', gone?.account_id ?? ''])
      .orderBy('group_sf_id', 'desc')
      .executeTakeFirstOrThrow();
    await sql`update crm_groups set rev_share = 0.4321 where group_sf_id = ${changedGroup.group_sf_id}`.execute(
      t.db,
    );
    const { rows: usedBefore } = await sql<{
      n: number;
    }>`select count(*)::int as n from groups g join partners p on p.id = g.partner_id
      where p.account_id = ${gone?.account_id} and (exists (select 1 from merchants m where m.group_id = g.group_id)
        or exists (select 1 from applications x where x.group_id = g.group_id))`.execute(t.db);
    await sql`delete from crm_groups where account_id = ${gone?.account_id}`.execute(t.db);
    await sql`delete from crm_accounts where account_id = ${gone?.account_id}`.execute(t.db);

    const second = await runImport(c);
    expect(second.runtime_status).toBe('finished');
    expect(second.result).toMatch(
      /Accounts: 1 added, 1 changed, 1 marked inactive; groups: 1 added, 1 changed/,
    );
    const p = await t.db
      .selectFrom('partners')
      .select(['account_name', 'status'])
      .where('account_id', 'in', ['001NEW000000001', gone?.account_id ?? ''])
      .orderBy('account_id')
      .execute();
    expect(p).toEqual([
      { account_name: 'Zephyr Payments', status: 'Active' },
      { account_name: expect.any(String), status: 'Inactive' },
    ]);
    const history = await sql<{
      new_rev_share: string;
      changed_by: string;
    }>`select h.new_rev_share, h.changed_by from rev_share_history h
      join groups g on g.id = h.group_row_id where g.group_sf_id = ${changedGroup.group_sf_id} order by h.id desc limit 1`.execute(
      t.db,
    );
    expect(history.rows[0]).toEqual({ new_rev_share: '0.4321', changed_by: 'CRM import' });
    // Groups merchants or applications use stay though the CRM dropped their account.
    const { rows: kept } = await sql<{
      n: number;
    }>`select count(*)::int as n from groups g join partners p on p.id = g.partner_id
      where p.account_id = ${gone?.account_id}`.execute(t.db);
    expect(kept[0]?.n).toBe(usedBefore[0]?.n);
    expect(usedBefore[0]?.n).toBeGreaterThan(0);

    const before = await snapshot(t.db);
    const third = await runImport(c);
    expect(third.result).toMatch(
      /0 added, 0 changed, 0 marked inactive; groups: 0 added, 0 changed, 0 removed/,
    );
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('a CRM that fails halfway leaves the partners as they were, and the import ends stopped', async () => {
    await sql`update crm_accounts set rm = 'Changed RM'`.execute(t.db);
    const before = await snapshot(t.db);
    crm.failHalfway = true;
    try {
      await expect(t.db.transaction().execute((trx) => importFromCrm(trx, crm))).rejects.toThrow(
        'CRM connection reset',
      );
      expect(await snapshot(t.db)).toEqual(before);
      const status = await runImport(await signedIn('sales@paydesk.local'));
      expect(status.runtime_status).toBe('stopped');
      expect(status.error).toMatch(/CRM connection reset/);
      expect(await snapshot(t.db)).toEqual(before);
    } finally {
      crm.failHalfway = false;
    }
  });

  it('checkLambdaRuntime refuses other jobs and bad ids', async () => {
    const c = await admin();
    expect((await c.post('/api/checkLambdaRuntime', { uuid: 'x' })).statusCode).toBe(400);
    expect(
      (await c.post('/api/checkLambdaRuntime', { uuid: '00000000-0000-4000-8000-000000000000' })).statusCode,
    ).toBe(404);
  });
});

describe('XLSX', () => {
  async function exportFile(c: Client) {
    const res = await c.post('/api/partner/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('Partners.xlsx');
    return res.rawPayload;
  }

  it('an export has one row per account and imports back unchanged', async () => {
    const c = await signedIn('sales.admin@paydesk.local');
    const file = await exportFile(c);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Partners');
    const { rows: n } = await sql<{ n: number }>`select count(*)::int as n from partners`.execute(t.db);
    expect((sheet?.rowCount ?? 0) - 1).toBe(n[0]?.n);
    const summitRow = sheet
      ?.getRows(2, sheet.rowCount - 1)
      ?.find((r) => r.getCell(2).value === 'Summit Payment Group');
    const { rows: ids } = await sql<{
      ids: string;
      first: string;
    }>`select string_agg(g.group_id, ', ' order by g.effective_date, g.group_id) as ids,
      min(g.effective_date)::text as first from groups g join partners p on p.id = g.partner_id where p.account_name = 'Summit Payment Group'`.execute(
      t.db,
    );
    expect(summitRow?.getCell(3).value).toBe(ids[0]?.ids);
    expect(summitRow?.getCell(18).value).toBe(ids[0]?.first);

    const before = await snapshot(t.db);
    const res = await c.upload('/api/uploadpartner', file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/0 added, 0 changed/);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('a bad file is refused whole with row-numbered problems', async () => {
    const c = await signedIn('sales.admin@paydesk.local');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await exportFile(c)) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Partners');
    if (!sheet) throw new Error('no sheet');
    sheet.getRow(2).getCell(4).value = 'Changed';
    sheet.getRow(3).getCell(7).value = 5;
    sheet.getRow(4).getCell(3).value = '123456789';
    sheet.getRow(5).getCell(1).value = sheet.getRow(6).getCell(1).value;
    sheet.getRow(7).getCell(9).value = 'not a date';
    const before = await snapshot(t.db);
    const res = await c.upload('/api/uploadpartner', Buffer.from(await book.xlsx.writeBuffer()));
    expect(res.statusCode).toBe(400);
    const rows = res.json().problems.map((p: { row: number }) => p.row);
    expect(rows).toEqual([7]);
    sheet.getRow(7).getCell(9).value = '2020-01-01';
    const again = await c.upload('/api/uploadpartner', Buffer.from(await book.xlsx.writeBuffer()));
    expect(again.statusCode).toBe(400);
    expect(new Set(again.json().problems.map((p: { row: number }) => p.row))).toEqual(new Set([3, 4, 5, 6]));
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('Import XLSX is for admin and sales_admin', async () => {
    const c = await signedIn('sales@paydesk.local');
    const file = await exportFile(c);
    expect((await c.upload('/api/uploadpartner', file)).statusCode).toBe(403);
    await addUser(t.db, 'finance.importer@paydesk.local', 'finance_admin');
    const f = await signedIn('finance.importer@paydesk.local');
    expect((await f.upload('/api/uploadpartner', file)).statusCode).toBe(403);
  });
});

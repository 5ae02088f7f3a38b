import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeTransaction } from '../src/platform/scope';
import { addUser, Client, type TestApp, testApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

describe('ISO scoping', () => {
  it('an ISO-bound user sees only their ISO, internal staff see all', async () => {
    const partner = new Client(t.app);
    const signin = await partner.signin('partner@summitpayments.example');
    expect(signin.user.iso.name).toBe('Summit Payment Group');
    const theirs = (await partner.get('/api/app/isos')).json();
    expect(theirs).toEqual([{ id: signin.user.iso.id, name: 'Summit Payment Group' }]);

    const staff = new Client(t.app);
    await staff.signin('sales@paydesk.local');
    const all = (await staff.get('/api/app/isos')).json();
    const { n } = await t.db
      .selectFrom('partners')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(all).toHaveLength(n);
    expect(n).toBeGreaterThan(1);
  });

  it('binding another user to an ISO scopes them at once', async () => {
    const other = await t.db
      .selectFrom('partners')
      .select(['id', 'account_name'])
      .where('account_name', '=', 'Lone Star Processing')
      .executeTakeFirstOrThrow();
    await addUser(t.db, 'rep@lonestar.example', 'finance', { partnerId: other.id });
    const rep = new Client(t.app);
    await rep.signin('rep@lonestar.example');
    expect((await rep.get('/api/app/isos')).json()).toEqual([{ id: other.id, name: 'Lone Star Processing' }]);
  });

  it('holds in the data layer: a query with no ISO filter of its own returns only the ISO’s rows', async () => {
    const summit = await t.db
      .selectFrom('partners')
      .select('id')
      .where('account_name', '=', 'Summit Payment Group')
      .executeTakeFirstOrThrow();
    const rows = await t.db.transaction().execute(async (trx) => {
      await scopeTransaction(trx, summit.id);
      return trx.selectFrom('partners').select('id').execute();
    });
    expect(rows).toEqual([{ id: summit.id }]);
  });

  it('refuses writes outside the ISO and reads of platform tables', async () => {
    const summit = await t.db
      .selectFrom('partners')
      .select('id')
      .where('account_name', '=', 'Summit Payment Group')
      .executeTakeFirstOrThrow();
    const updated = await t.db.transaction().execute(async (trx) => {
      await scopeTransaction(trx, summit.id);
      const r = await trx
        .updateTable('partners')
        .set({ rm: 'Hijacked' })
        .where('account_name', '=', 'Lone Star Processing')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    });
    expect(updated).toBe(0);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await scopeTransaction(trx, summit.id);
        return trx.selectFrom('users').select('email').execute();
      }),
    ).rejects.toThrow(/permission denied/);
  });

  // Unset, the setting is missing; once a transaction on this connection has set it, it reads as ''. Both fail.
  it('lets the ISO role read only its own ISO’s rows of the financial rollup', async () => {
    const summit = await t.db
      .selectFrom('partners')
      .select('id')
      .where('account_name', '=', 'Summit Payment Group')
      .executeTakeFirstOrThrow();
    const rows = await t.db.transaction().execute(async (trx) => {
      await scopeTransaction(trx, summit.id);
      return trx.selectFrom('activity_rollup').select(['dimension', 'value']).distinct().execute();
    });
    expect(rows).toEqual([{ dimension: 'partner', value: String(summit.id) }]);
    const staff = await t.db.selectFrom('activity_rollup').select('dimension').distinct().execute();
    expect(staff.length).toBe(7);
  });

  it('fails closed when the ISO role runs without an ISO set', async () => {
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql.raw('set local role paydesk_iso').execute(trx);
        return trx.selectFrom('partners').select('id').execute();
      }),
    ).rejects.toThrow(/paydesk\.iso_id|invalid input syntax for type integer/);
  });
});

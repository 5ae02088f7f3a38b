import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../connect';
import type { Scale } from './generate';
import { Random } from './random';
import { BUSINESS_WORDS, FIRST_NAMES, LAST_NAMES, PLACE_WORDS, STAFF, STATES } from './reference';

/** Leads in the sandbox CRM per scale: the large (bench) scale has the 10,000 the picker is measured with. */
export const LEAD_COUNTS: Record<Scale, number> = { test: 300, demo: 1_200, large: 10_000, xl: 29_000 };

const LEAD_STATUSES = ['Open - Not Contacted', 'Working - Contacted', 'Qualified', 'Closed - Not Converted'];
const LEAD_STATUS_WEIGHTS = [5, 4, 2, 1];
const DAY = 86_400_000;

/** A sandbox lead id: Salesforce's lead prefix 00Q, then the sandbox's own numbering (18 characters). */
export const sandboxLeadId = (n: number) => `00QSBX${String(n).padStart(12, '0')}`;

/**
 * The sandbox CRM's leads, deterministic from the seed: names, companies, contact details and the owning RM,
 * created over the last two years. Four of the newest leads also carry a decision history for the approval
 * cards (approved and converted, rejected, pending); their forms are not seeded (the demo holds no sensitive
 * data it did not get from a user), so those leads prefill from the CRM only.
 */
export async function generateLeads(
  db: Db,
  options: { scale: Scale; today: string; seed?: number; log?: (line: string) => void },
): Promise<number> {
  const random = new Random((options.seed ?? 20161105) ^ 0x1ead);
  const today = Date.parse(`${options.today}T00:00:00Z`);
  const kinds = Object.keys(BUSINESS_WORDS) as (keyof typeof BUSINESS_WORDS)[];
  const count = LEAD_COUNTS[options.scale];
  const rows = [];
  for (let i = 1; i <= count; i++) {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const words = BUSINESS_WORDS[random.pick(kinds)];
    const company =
      `${random.pick(PLACE_WORDS)} ${random.pick(words.nouns)} ${random.pick(words.suffixes)}`.trim();
    const [state, , cities] = random.pick(STATES);
    const [city, zip3] = random.pick(cities);
    // Lead numbers grow with time, so the newest lead has the highest number.
    const created = new Date(
      today - Math.floor(((count - i) / count) * 720 * DAY) - random.int(0, 20 * 3600) * 1000,
    );
    rows.push({
      lead_id: sandboxLeadId(i),
      name: `${first} ${last}`,
      company,
      status: random.weighted(LEAD_STATUSES, LEAD_STATUS_WEIGHTS),
      created_date: created,
      owner_name: random.pick(STAFF.rms),
      first_name: first,
      last_name: last,
      email: `${first}.${last}@${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`.toLowerCase(),
      phone: `(${random.int(201, 989)}) 555-${String(random.int(100, 199)).padStart(4, '0')}`,
      street: `${random.int(10, 9999)} ${random.pick(PLACE_WORDS)} St`,
      city,
      state,
      postal_code: `${zip3}${String(random.int(0, 99)).padStart(2, '0')}`,
    });
  }
  for (let i = 0; i < rows.length; i += 2000)
    await db
      .insertInto('crm_leads')
      .values(rows.slice(i, i + 2000))
      .execute();

  const history: { n: number; approved: 0 | 1 | null; daysAgo: number; comment: string | null }[] = [
    { n: count - 10, approved: 1, daysAgo: 9, comment: 'Clean file; approved at standard reserve.' },
    { n: count - 12, approved: 1, daysAgo: 6, comment: null },
    { n: count - 14, approved: 0, daysAgo: 4, comment: 'MATCH record from a prior processor.' },
    { n: count - 16, approved: null, daysAgo: 1, comment: null },
  ];
  for (const h of history) {
    const lead = rows[h.n - 1];
    if (!lead) continue;
    const sent = new Date(today - h.daysAgo * DAY);
    const decided = h.approved === null ? null : new Date(sent.getTime() + 5 * 3600_000);
    const accountId = h.approved === 1 ? `001SBX${String(h.n).padStart(12, '0')}` : null;
    await db
      .insertInto('lead_approvals')
      .values({
        lead_id: lead.lead_id,
        // A hash of a token nobody holds: seeded requests cannot be opened from a link.
        token_hash: createHash('sha256').update(`seeded ${lead.lead_id} ${random.next()}`).digest('hex'),
        assigned_user: 'finance.admin@paydesk.local',
        assigned_by: 'sales@paydesk.local',
        cc_user: null,
        created_on: sent,
        expires_on: new Date(sent.getTime() + 72 * 3600_000),
        approved: h.approved,
        comment: h.comment,
        decided_on: decided,
        first_name: lead.first_name,
        last_name: lead.last_name,
        dba: lead.company,
        legal_name: lead.company,
        owner_name: lead.owner_name,
        uw_name: 'Finance Admin',
        account_id: accountId,
      })
      .execute();
    await db
      .insertInto('lead_steps')
      .values({
        lead_id: lead.lead_id,
        current_step: 3,
        completed: h.approved !== null,
        updated_at: decided ?? sent,
      })
      .execute();
    if (accountId)
      await db
        .updateTable('crm_leads')
        .set({ converted_account_id: accountId, converted_at: decided, status: 'Converted' })
        .where('lead_id', '=', lead.lead_id)
        .execute();
  }
  // Conversions made later continue after the seeded account numbers.
  await sql`select setval('crm_account_sf_seq', ${count + 1})`.execute(db);
  options.log?.(`  ${count} CRM leads`);
  return count;
}

/** A demo database seeded before the leads tables existed (the bench database) gets its leads once. */
export async function seedLeadsIfMissing(db: Db, log?: (line: string) => void): Promise<number | null> {
  const state = await db
    .selectFrom('demo_state')
    .select(['scale', 'caught_up_to', 'seed'])
    .executeTakeFirst();
  if (!state) return null;
  if (await db.selectFrom('crm_leads').select('lead_id').limit(1).executeTakeFirst()) return null;
  const scale = (state.scale in LEAD_COUNTS ? state.scale : 'demo') as Scale;
  const count = await db.transaction().execute((trx) =>
    generateLeads(trx, {
      scale,
      today: new Date(state.caught_up_to).toISOString().slice(0, 10),
      seed: state.seed,
      log,
    }),
  );
  await sql`vacuum analyze crm_leads`.execute(db);
  return count;
}

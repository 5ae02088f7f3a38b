import {
  addDays,
  type BonusWindow,
  bonusEndpoints,
  clawbackDates,
  clawbackWindow,
  describeAudit,
  dueWindows,
  extraWindow,
  lastDueWindow,
  monthlyWindow,
  nextWindow,
  parseMoney,
  type RunKind,
  toDecimalString,
  todayIso,
  weeklyWindow,
  windowOf,
} from '@paydesk/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { type AnswerPart, keptArrayInParts, keptJson, scopeKey } from '../../platform/answerCache';
import { badRequest, notFound } from '../../platform/errors';
import { type Deps, route } from '../../platform/http';
import { BONUS_RUN_JOB } from './jobs';
import {
  activationDays,
  activationFrom,
  allMatches,
  bonusRowsJson,
  clawbackRowsJson,
  extraBonusRows,
  matchesByMid,
} from './queries';
import { computeBonusWindow, computeClawbackRun, loadSpecs } from './run';
import { checkIsoGroups, deleteSpecRow, listLabel, logChange, ok, refused, saveSpecRow } from './specs';

const noWindow = (what: string, date: string) => badRequest(`There is no ${what} window for ${date}`);
const dec = (n: number) => toDecimalString(parseMoney(String(n)));

/**
 * The bonus module (spec document 3 §7; docs/bonus.md). Everyone signed in reads bonuses, extra bonuses,
 * clawbacks, matches and activation (ISO-bound users their ISO's rows, by row-level security); the specifications
 * and the activity log are internal staff's (staffOnly); editing them and marking rows needs `bonus_edit`; runs
 * need `manage_jobs`.
 */
export function bonusRoutes(app: FastifyInstance, deps: Deps) {
  // ------------------------------------------------------------ rows

  route(app, deps, {
    endpoint: bonusEndpoints.getBonus,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, input, user }) => {
      const window = input.bonusType === 'W' ? weeklyWindow(input.date) : monthlyWindow(input.date);
      if (!window) throw noWindow(input.bonusType === 'W' ? 'weekly' : 'monthly', input.date);
      // Kept per ISO scope and window until a bonus row, a merchant, an ISO or a day's figures change.
      return keptJson(deps.db, db, 'bonus', scopeKey(user, window.kind, window.start), () =>
        bonusRowsJson(db, window),
      );
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.getExtraBonus,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, input }) => {
      const window = extraWindow(input.date);
      if (!window) throw noWindow('Monthly Extra', input.date);
      return extraBonusRows(db, window);
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.getClawback,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, input, user }) => {
      const window = clawbackWindow(input.date);
      if (!window) throw noWindow('clawback', input.date);
      // Kept per ISO scope and run date until a clawback row, a bonus row, a merchant or an ISO changes (migration
      // 2026_12_13_0040), its JSON written by PostgreSQL: at the xl scale a run's 279 rows parsed, checked and
      // serialised took 21 ms a call (docs/bench.md).
      return keptJson(deps.db, db, 'bonus', scopeKey(user, 'CB', window.runDate), () =>
        clawbackRowsJson(db, window.runDate),
      );
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.getMatchesByMid,
    access: 'session',
    scope: 'iso',
    handler: ({ db, input }) => matchesByMid(db, input.mids),
  });

  // The matches are the same for every caller of one scope until a table they read changes: kept per scope
  // (platform/answerCache.ts, version 'bonus'), checked against their schema once, when written (65 ms afresh at
  // the large scale, docs/bench.md). The activation list below is kept in parts.
  route(app, deps, {
    endpoint: bonusEndpoints.getMatches,
    access: 'session',
    scope: 'iso',
    handler: ({ db, user }) =>
      keptJson(deps.db, db, 'bonus', scopeKey(user, 'matches'), async () =>
        JSON.stringify(bonusEndpoints.getMatches.output.parse(await allMatches(db))),
      ),
  });

  // The activation list: written by PostgreSQL from the rows the writes keep per merchant (migration
  // 2026_12_18_0010), kept per scope and day (platform/answerCache.ts) in parts, one per approval day, each until a
  // statement writes a kept row of that day. Worked out from the daily figures it took 190 / 250 ms at the large
  // scale after every daily write (docs/bench.md).
  route(app, deps, {
    endpoint: bonusEndpoints.getActivation,
    access: 'session',
    scope: 'iso',
    handler: async ({ db, user }) => {
      // Kept per day as this server counts days (the list's own "today"), not the database's.
      const today = todayIso();
      const from = await activationFrom(db, today);
      // The list's order: the newest approval day first.
      const parts: AnswerPart[] = [];
      for (let day = today; day >= from; day = addDays(day, -1))
        parts.push({ key: day, first: day, last: day });
      return keptArrayInParts(
        deps.db,
        db,
        'activation',
        scopeKey(user, 'activation', today),
        'list',
        parts,
        async (stale) => {
          const byDay = await activationDays(
            db,
            today,
            stale.map((p) => p.key),
          );
          return new Map(stale.map((p) => [p.key, byDay.get(p.key) ?? '']));
        },
      );
    },
  });

  // ------------------------------------------------------------ marks (kept across reruns)

  route(app, deps, {
    endpoint: bonusEndpoints.updateDoNotPay,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const row = await db
        .updateTable('bonus_rows')
        .set({ do_not_pay: input.do_not_pay, worked_datetime: new Date(), worked_by: user.email })
        .where('id', '=', input.id)
        .returning(['mid', 'period', 'window_start'])
        .executeTakeFirst();
      if (!row) throw notFound(`No bonus row ${input.id}`);
      const message = `${input.do_not_pay ? 'Marked' : 'Cleared'} do-not-pay on the ${row.period} bonus of ${row.mid} (window from ${row.window_start})`;
      await logChange(db, user, message, { id: input.id, do_not_pay: input.do_not_pay }, 'bonus.mark');
      return ok(message);
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.updateNote,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const note = input.note.trim() === '' ? null : input.note;
      const row = await db
        .updateTable('bonus_rows')
        .set({ note, worked_datetime: new Date(), worked_by: user.email })
        .where('id', '=', input.id)
        .returning(['mid', 'period', 'window_start'])
        .executeTakeFirst();
      if (!row) throw notFound(`No bonus row ${input.id}`);
      const message = `${note ? 'Noted' : 'Cleared the note on'} the ${row.period} bonus of ${row.mid} (window from ${row.window_start})${note ? `: ${note}` : ''}`;
      await logChange(db, user, message, { id: input.id }, 'bonus.mark');
      return ok(message);
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.updateDoNotClawback,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const row = await db
        .selectFrom('clawback_rows')
        .select(['id', 'flag'])
        .where('mid', '=', input.mid)
        .where('run_date', '=', input.clawback_date)
        .executeTakeFirst();
      if (!row) throw notFound(`No clawback of ${input.mid} on ${input.clawback_date}`);
      if (row.flag !== 'CBN')
        return refused('Only a CBN clawback (the merchant is still open) can be marked do-not-clawback');
      await db
        .updateTable('clawback_rows')
        .set({ do_not_clawback: input.do_not_clawback, worked_datetime: new Date(), worked_by: user.email })
        .where('id', '=', row.id)
        .execute();
      const message = `${input.do_not_clawback ? 'Marked' : 'Cleared'} do-not-clawback on ${input.mid} (clawback ${input.clawback_date})`;
      await logChange(db, user, message, { mid: input.mid }, 'bonus.mark');
      return ok(message);
    },
  });

  // ------------------------------------------------------------ lists for the forms

  route(app, deps, {
    endpoint: bonusEndpoints.getIsoList,
    access: 'session',
    scope: 'staffOnly',
    handler: async ({ db }) => {
      const rows = await db
        .selectFrom('groups as g')
        .innerJoin('partners as p', 'p.id', 'g.partner_id')
        .select(['p.account_name as iso_name', 'g.group_id'])
        .orderBy('p.account_name')
        .orderBy('g.group_id')
        .execute();
      return rows;
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.getEquipmentList,
    access: 'session',
    scope: 'staffOnly',
    handler: async ({ db }) => {
      const { rows } = await sql<{ model: string; merchants: number }>`
        select equipment_model as model, count(*)::int as merchants from merchants
        where equipment_model is not null group by equipment_model order by equipment_model`.execute(db);
      return rows;
    },
  });

  // ------------------------------------------------------------ bonus specs

  route(app, deps, {
    endpoint: bonusEndpoints.getBonusIsoList,
    access: 'session',
    scope: 'staffOnly',
    handler: async ({ db, input }) => {
      const rows = await db
        .selectFrom('bonus_specs')
        .selectAll()
        .where('profile', '=', input.profile)
        .where('period', '=', input.period)
        // The default (no ISO) first, as the screen's Exclude button reads the first row.
        .orderBy(sql`iso_name is not null`)
        .orderBy('iso_name')
        .orderBy('group_id')
        .execute();
      return rows;
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.getBonusExcludeIsoList,
    access: 'session',
    scope: 'staffOnly',
    handler: ({ db, input }) =>
      db
        .selectFrom('bonus_excludes')
        .selectAll()
        .where('profile', '=', input.profile)
        .where('period', '=', input.period)
        .orderBy('iso_name')
        .orderBy('group_id')
        .execute(),
  });

  route(app, deps, {
    endpoint: bonusEndpoints.addBonusIso,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const isDefault = !input.iso_name && input.group_id.length === 0;
      let iso: string | null = null;
      if (!isDefault) {
        const checked = await checkIsoGroups(db, input.iso_name, input.group_id);
        if ('refusal' in checked) return checked.refusal;
        iso = checked.iso;
      }
      return saveSpecRow(db, {
        table: 'bonus_specs',
        list: { profile: input.profile, period: input.period },
        overlapWith: [
          { table: 'bonus_specs', profile: input.profile, period: 'W' },
          { table: 'bonus_specs', profile: input.profile, period: 'M' },
        ],
        groupIds: input.group_id,
        edit: input.edit,
        force: input.force,
        what: `${listLabel(input.profile, input.period)} bonus spec`,
        user,
        values: {
          iso_name: iso,
          profile: input.profile,
          period: input.period,
          // Placement Only forces amount 0 and pay on approval (spec §5).
          amount: input.placement_only ? '0' : dec(input.amount),
          on_activation: input.placement_only ? false : input.on_activation,
          placement_only: input.placement_only,
          volume_days: input.volume_days,
          volume_threshold: dec(input.volume_threshold),
        },
      });
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.deleteBonusIso,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: ({ db, input, user }) =>
      deleteSpecRow(db, {
        table: 'bonus_specs',
        list: { profile: input.profile, period: input.period },
        groupKey: input.group_id,
        what: `${listLabel(input.profile, input.period)} bonus spec`,
        user,
      }),
  });

  route(app, deps, {
    endpoint: bonusEndpoints.addExcludeBonusIso,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const checked = await checkIsoGroups(db, null, input.group_id);
      if ('refusal' in checked) return checked.refusal;
      return saveSpecRow(db, {
        table: 'bonus_excludes',
        list: { profile: input.profile, period: input.period },
        groupIds: input.group_id,
        edit: false,
        force: false,
        what: `${listLabel(input.profile, input.period)} exclusion`,
        user,
        values: { iso_name: checked.iso, profile: input.profile, period: input.period },
      });
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.deleteExcludeBonusIso,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: ({ db, input, user }) =>
      deleteSpecRow(db, {
        table: 'bonus_excludes',
        list: { profile: input.profile, period: input.period },
        groupKey: input.group_id,
        what: `${listLabel(input.profile, input.period)} exclusion`,
        user,
      }),
  });

  // ------------------------------------------------------------ clawback, activation, extra specs

  route(app, deps, {
    endpoint: bonusEndpoints.getClawbackList,
    access: 'session',
    scope: 'staffOnly',
    handler: ({ db }) =>
      db
        .selectFrom('clawback_specs')
        .selectAll()
        .orderBy(sql`iso_name is not null`)
        .orderBy('iso_name')
        .orderBy('group_id')
        .execute(),
  });

  route(app, deps, {
    endpoint: bonusEndpoints.addClawback,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const isDefault = !input.iso_name && input.group_id.length === 0;
      if (isDefault && input.edit !== '')
        return refused('The default clawback row exists already: edit it, or choose an ISO and group IDs');
      let iso: string | null = null;
      if (!isDefault) {
        const checked = await checkIsoGroups(db, input.iso_name, input.group_id);
        if ('refusal' in checked) return checked.refusal;
        iso = checked.iso;
      }
      return saveSpecRow(db, {
        table: 'clawback_specs',
        list: {},
        groupIds: input.group_id,
        edit: input.edit,
        force: true,
        what: 'clawback spec',
        user,
        values: {
          iso_name: iso,
          closure_days: input.closure_days,
          volume_days: input.volume_days,
          volume_threshold: dec(input.volume_threshold),
          non_processing: input.non_processing,
          monthly_volume_threshold: dec(input.monthly_volume_threshold),
        },
      });
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.deleteClawback,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: ({ db, input, user }) =>
      deleteSpecRow(db, { table: 'clawback_specs', groupKey: input.group_id, what: 'clawback spec', user }),
  });

  route(app, deps, {
    endpoint: bonusEndpoints.getActivationList,
    access: 'session',
    scope: 'staffOnly',
    handler: ({ db }) =>
      db.selectFrom('activation_specs').selectAll().orderBy('iso_name').orderBy('group_id').execute(),
  });

  route(app, deps, {
    endpoint: bonusEndpoints.addActivation,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const checked = await checkIsoGroups(db, input.iso_name, input.group_id);
      if ('refusal' in checked) return checked.refusal;
      return saveSpecRow(db, {
        table: 'activation_specs',
        list: {},
        groupIds: input.group_id,
        edit: input.edit,
        force: true,
        what: 'activation spec',
        user,
        values: {
          iso_name: checked.iso,
          volume_days: input.volume_days,
          volume_threshold: dec(input.volume_threshold),
        },
      });
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.deleteActivation,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: ({ db, input, user }) =>
      deleteSpecRow(db, {
        table: 'activation_specs',
        groupKey: input.group_id,
        what: 'activation spec',
        user,
      }),
  });

  route(app, deps, {
    endpoint: bonusEndpoints.getExtraBonusIsoList,
    access: 'session',
    scope: 'staffOnly',
    handler: async ({ db }) => {
      const rows = await db
        .selectFrom('extra_bonus_specs')
        .selectAll()
        .orderBy('iso_name')
        .orderBy('group_id')
        .execute();
      return rows;
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.addExtraBonusIso,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const checked = await checkIsoGroups(db, input.iso_name, input.group_id);
      if ('refusal' in checked) return checked.refusal;
      return saveSpecRow(db, {
        table: 'extra_bonus_specs',
        list: {},
        groupIds: input.group_id,
        edit: input.edit,
        force: true,
        what: 'extra bonus spec',
        user,
        values: {
          iso_name: checked.iso,
          extra_deals: input.extra_deals,
          extra_amount: dec(input.extra_amount),
          bonus_type: input.extra_type,
          start_date: input.start_date,
          end_date: input.end_date,
          enabled: input.enabled,
        },
      });
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.deleteExtraBonusIso,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: ({ db, input, user }) =>
      deleteSpecRow(db, {
        table: 'extra_bonus_specs',
        groupKey: input.group_id,
        what: 'extra bonus spec',
        user,
      }),
  });

  // ------------------------------------------------------------ equipment

  route(app, deps, {
    endpoint: bonusEndpoints.getBonusEquipmentList,
    access: 'session',
    scope: 'staffOnly',
    handler: ({ db }) => db.selectFrom('bonus_equipment').selectAll().orderBy('title').execute(),
  });

  route(app, deps, {
    endpoint: bonusEndpoints.addBonusEquipment,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const existing = await db.selectFrom('bonus_equipment').selectAll().execute();
      const editing = input.edit === false ? null : existing.find((e) => e.title === input.edit);
      if (input.edit !== false && !editing) return refused(`No equipment "${input.edit}" to edit`);
      const clash = existing.find(
        (e) => e.id !== editing?.id && (e.title === input.title || e.model === input.model),
      );
      if (clash)
        return refused(
          clash.title === input.title
            ? `There is already equipment named ${input.title}`
            : `Model ${input.model} already has an amount (${clash.title})`,
        );
      const values = { title: input.title, model: input.model, amount: dec(input.amount) };
      if (editing) await db.updateTable('bonus_equipment').set(values).where('id', '=', editing.id).execute();
      else await db.insertInto('bonus_equipment').values(values).execute();
      const message = `${editing ? 'Edited' : 'Added'} the equipment ${input.title} (${input.model}) at $${values.amount}`;
      await logChange(db, user, message, values);
      return ok(message);
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.deleteBonusEquipment,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const gone = await db.deleteFrom('bonus_equipment').where('title', '=', input.title).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return refused(`No equipment named ${input.title}`);
      const message = `Deleted the equipment ${input.title}`;
      await logChange(db, user, message, { title: input.title });
      return ok(message);
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.getExclusiveBonusEquipmentList,
    access: 'session',
    scope: 'staffOnly',
    handler: ({ db }) =>
      db.selectFrom('exclusive_equipment').selectAll().orderBy('iso_name').orderBy('group_id').execute(),
  });

  route(app, deps, {
    endpoint: bonusEndpoints.addExclusiveEquipment,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const checked = await checkIsoGroups(db, input.iso_name, input.group_id);
      if ('refusal' in checked) return checked.refusal;
      return saveSpecRow(db, {
        table: 'exclusive_equipment',
        list: {},
        groupIds: input.group_id,
        edit: input.edit,
        force: true,
        what: 'exclusive equipment',
        user,
        values: { iso_name: checked.iso, title: input.title, model: input.model, amount: dec(input.amount) },
      });
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.deleteExclusiveEquipment,
    access: 'bonus_edit',
    scope: 'staffOnly',
    handler: ({ db, input, user }) =>
      deleteSpecRow(db, {
        table: 'exclusive_equipment',
        groupKey: input.group_id,
        what: 'exclusive equipment',
        user,
      }),
  });

  // ------------------------------------------------------------ activity log, windows, runs

  route(app, deps, {
    endpoint: bonusEndpoints.getActivityLog,
    access: 'session',
    scope: 'staffOnly',
    handler: async ({ db, input }) => {
      // The bonus activity log (log type BNS, the only type the body accepts) is the audit log's bonus entries.
      const rows = await db
        .selectFrom('audit_log')
        .select(['at', 'actor_email', 'action', 'subject', 'details'])
        .where('action', 'in', ['bonus.run', 'bonus.spec', 'bonus.mark'])
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(input.row_count)
        .offset(input.page_num * input.row_count)
        .execute();
      return rows.map((r) => ({
        date_time: r.at,
        user: r.actor_email ?? 'scheduled run',
        log_description: describeAudit({
          action: r.action,
          subject: r.subject,
          details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<
            string,
            unknown
          >,
        }),
      }));
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.windows,
    access: 'session',
    // Dates only, no table read: ISO-bound users need the selectors too.
    scope: 'platform',
    handler: async () => {
      const today = todayIso();
      const weekly = dueWindows('W', today)
        .map((w) => w.start)
        .reverse();
      const current = (kind: 'W' | 'M') => windowOf(kind, today) as BonusWindow;
      return {
        weekly,
        current: { W: current('W'), M: current('M') },
        nextExtraRun: (nextWindow('ME', today) as BonusWindow).runDate,
        nextClawbackRun: (nextWindow('CB', today) as BonusWindow).runDate,
        clawbackDates: clawbackDates(today),
      };
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.run,
    access: 'manage_jobs',
    scope: 'staffOnly',
    handler: async ({ db, input, user }) => {
      const window = pickWindow(input.kind, input.date, 'last');
      const job = deps.jobs.definition(BONUS_RUN_JOB);
      if (!job) throw badRequest('Bonus runs are not available on this server');
      const jobId = await deps.jobs.send(
        job,
        { kind: input.kind, date: window.start },
        { db, startedBy: user.id },
      );
      return { jobId, window };
    },
  });

  route(app, deps, {
    endpoint: bonusEndpoints.preview,
    access: 'manage_jobs',
    scope: 'staffOnly',
    handler: async ({ db, input }) => {
      const window = pickWindow(input.kind, input.date, 'next');
      const specs = await loadSpecs(db);
      const strip = <T extends { id: number }>({ id: _id, ...rest }: T) => rest;
      if (window.kind === 'CB') {
        const computed = await computeClawbackRun(db, window, specs);
        return { window, bonuses: [], clawbacks: computed.map((c) => strip(previewClawback(c, window))) };
      }
      const computed = await computeBonusWindow(db, window, specs);
      return { window, bonuses: computed.map((c) => strip(previewBonus(c, window))), clawbacks: [] };
    },
  });
}

function pickWindow(kind: RunKind, date: string | undefined, otherwise: 'last' | 'next'): BonusWindow {
  const today = todayIso();
  const window = date
    ? windowOf(kind, date)
    : otherwise === 'last'
      ? lastDueWindow(kind, today)
      : nextWindow(kind, today);
  if (!window) throw badRequest(`There is no ${kind} window ${date ? `for ${date}` : 'yet'}`);
  return window;
}

type Computed = Awaited<ReturnType<typeof computeBonusWindow>>[number];
type ComputedCb = Awaited<ReturnType<typeof computeClawbackRun>>[number];

function merchantPart(m: Computed['merchant']) {
  return {
    mid: m.mid,
    dba_name: m.dba,
    iso_name: m.iso,
    group_id: m.group_id,
    rm: null,
    sales_rep: null,
    merchant_profile: m.profile,
    open_date: m.opened_on,
    close_date: m.closed_on,
    ownership_type: null,
    equipment_model: m.equipment_model,
  };
}

function previewBonus(c: Computed, window: BonusWindow) {
  return {
    id: 0,
    ...merchantPart(c.merchant),
    bonus_date: window.runDate,
    bonus_type: c.bonusType,
    bonus_amount: toDecimalString(c.amount),
    do_not_pay: false,
    note: null,
    worked_datetime: null,
    worked_by: null,
    volume: '0.00',
    last_deposit_date: null,
    volume_threshold_date: c.activatedOn,
    period: window.kind as 'W' | 'M' | 'ME',
    window_start: window.start,
    window_end: window.end,
    explanation: c.explanation,
    match_count: 0,
  };
}

function previewClawback(c: ComputedCb, window: BonusWindow) {
  return {
    id: 0,
    ...merchantPart(c.merchant),
    bonus_date: c.bonus.bonusDate,
    bonus_type: c.bonus.bonusType,
    bonus_amount: toDecimalString(c.bonus.amount),
    do_not_pay: c.bonus.doNotPay,
    note: null,
    worked_datetime: null,
    worked_by: null,
    volume: toDecimalString(c.computed.totalVolume),
    last_deposit_date: c.computed.lastDepositDate,
    volume_threshold_date: c.computed.volumeThresholdDate,
    period: 'M' as const,
    window_start: window.start,
    window_end: window.end,
    explanation: c.computed.explanation,
    match_count: 0,
    clawback_date: window.runDate,
    clawback_reason: c.computed.reasonText,
    clawback_flag: c.computed.flag,
    do_not_clawback: false,
    paid: c.bonus.doNotPay ? ('No' as const) : ('Yes' as const),
    clawback_amount: toDecimalString(c.computed.amount),
  };
}

import { z } from 'zod';
import { endpoint, timestamp } from '../endpoint';
import { type ColumnDef, isoDate, type TableDef } from '../table';
import { rowId } from './common';

/**
 * The bonus module (spec document 3 §2.3, §3, §4, §5, §7, §9): bonuses paid to ISOs for new merchants, extra
 * bonuses for volume of deals, clawbacks, activation, the specifications that decide them, and the activity
 * log. Field names are the spec's. How each figure is computed is in docs/bonus.md (domain/src/bonus/engine.ts).
 *
 * Who may do what (enforced by the server): everyone signed in reads, ISO-bound users their own ISO's rows only
 * (row-level security) and no specifications or activity log; editing specifications and marking do-not-pay,
 * notes and do-not-clawback need the capability `bonus_edit`; runs (run now, preview) need `manage_jobs`.
 */

export const bonusPaths = {
  getMatchesByMid: '/api/bonus/GetMatchesByMid',
  getMatches: '/api/bonus/GetMatches',
  updateDoNotPay: '/api/bonus/UpdateDoNotPayBonus',
  updateNote: '/api/bonus/UpdateBonusNote',
  getBonus: '/api/bonus/GetBonus',
  getExtraBonus: '/api/bonus/GetExtraBonus',
  getClawback: '/api/bonus/GetClawback',
  updateDoNotClawback: '/api/bonus/UpdateDoNotClawback',
  getActivation: '/api/bonus/GetActivation',
  getIsoList: '/api/bonus/GetIsoList',
  addBonusIso: '/api/bonus/AddBonusISO',
  getBonusIsoList: '/api/bonus/GetBonusIsoList',
  getBonusExcludeIsoList: '/api/bonus/GetBonusExcludeIsoList',
  addExcludeBonusIso: '/api/bonus/AddExcludeBonusISO',
  deleteBonusIso: '/api/bonus/DeleteBonusISO',
  deleteExcludeBonusIso: '/api/bonus/DeleteExcludeBonusISO',
  getClawbackList: '/api/bonus/GetClawbackList',
  addClawback: '/api/bonus/AddClawback',
  deleteClawback: '/api/bonus/DeleteClawback',
  getEquipmentList: '/api/bonus/GetEquipmentList',
  getBonusEquipmentList: '/api/bonus/GetBonusEquipmentList',
  addBonusEquipment: '/api/bonus/AddBonusEquipment',
  deleteBonusEquipment: '/api/bonus/DeleteBonusEquipment',
  getExclusiveBonusEquipmentList: '/api/bonus/GetExclusiveBonusEquipmentList',
  addExclusiveEquipment: '/api/bonus/AddExclusiveEquipment',
  /** The doubled final letter is the spec's contract. */
  deleteExclusiveEquipment: '/api/bonus/DeleteExclusiveEquipmentt',
  getActivationList: '/api/bonus/GetActivationList',
  addActivation: '/api/bonus/AddActivation',
  deleteActivation: '/api/bonus/DeleteActivation',
  getExtraBonusIsoList: '/api/bonus/GetExtraBonusIsoList',
  addExtraBonusIso: '/api/bonus/AddExtraBonusISO',
  deleteExtraBonusIso: '/api/bonus/DeleteExtraBonusISO',
  getActivityLog: '/api/logs/GetActivityLog',
  /** PayDesk's own: the run windows and next runs for the selectors and banners. */
  windows: '/api/app/bonus/windows',
  /** PayDesk's own: run a window now (a job), or preview it without saving (admin). */
  run: '/api/app/bonus/run',
  preview: '/api/app/bonus/preview',
} as const;

// ---------------------------------------------------------------- codes

/** W weekly, M monthly, ME monthly extra (spec §4); CB is PayDesk's code for a clawback run. */
export const BONUS_PERIODS = ['W', 'M', 'ME'] as const;
export type BonusPeriod = (typeof BONUS_PERIODS)[number];
export const BONUS_PERIOD_LABELS: Record<BonusPeriod, string> = {
  W: 'Weekly',
  M: 'Monthly',
  ME: 'Monthly Extra',
};
/** The periods a bonus specification belongs to. */
export const SPEC_PERIODS = ['W', 'M'] as const;
export type SpecPeriod = (typeof SPEC_PERIODS)[number];
export const RUN_KINDS = ['W', 'M', 'ME', 'CB'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const RUN_KIND_LABELS: Record<RunKind, string> = { ...BONUS_PERIOD_LABELS, CB: 'Clawback' };

export const BONUS_PROFILES = ['PL', 'TR'] as const;
export type BonusProfile = (typeof BONUS_PROFILES)[number];
export const BONUS_PROFILE_LABELS: Record<BonusProfile, string> = { PL: 'PayLo', TR: 'Traditional' };

export const EXTRA_BONUS_TYPES = ['EPD', 'EFR'] as const;
export type ExtraBonusType = (typeof EXTRA_BONUS_TYPES)[number];
export const EXTRA_BONUS_TYPE_LABELS: Record<ExtraBonusType, string> = { EPD: 'Per Deal', EFR: 'Flat Rate' };

/** A regular bonus row's type: what it was paid on. */
export const BONUS_ROW_TYPES = ['Approval', 'Activation', 'Placement Only'] as const;
export type BonusRowType = (typeof BONUS_ROW_TYPES)[number];

/**
 * Clawback flags (the spec shows CBN without defining it; docs/bonus.md does): CBY the clawback is due and
 * final (the merchant closed); CBN the clawback is due but negotiable (the merchant is still open), so staff may
 * tick Do Not Clawback.
 */
export const CLAWBACK_FLAGS = ['CBY', 'CBN'] as const;
export type ClawbackFlag = (typeof CLAWBACK_FLAGS)[number];
export const CLAWBACK_FLAG_LABELS: Record<ClawbackFlag, string> = {
  CBY: 'Clawback (merchant closed)',
  CBN: 'Clawback, negotiable (merchant open)',
};

export const CLAWBACK_REASONS = ['closure', 'volume', 'non_processing', 'monthly_volume'] as const;
export type ClawbackReason = (typeof CLAWBACK_REASONS)[number];

/** Spec §9 defaults. */
export const BONUS_DEFAULTS = {
  volumeDays: 30,
  volumeThreshold: 250,
  extraDeals: 10,
  extraAmount: 200,
  extraType: 'EPD' as ExtraBonusType,
  extraEnabled: true,
  closureDays: 0,
  nonProcessing: true,
  activityLogRows: 100,
} as const;

export const BONUS_PAGE_SIZES = [15, 25, 50] as const;
export const BONUS_DEFAULT_PAGE_SIZE = 15;
/** The activity log's type for the bonus module (spec §7, §9). */
export const BONUS_LOG_TYPE = 'BNS';

// ---------------------------------------------------------------- shared field schemas

const money = z.string().describe('an exact decimal, e.g. "150.00"');
const text = z.string().nullable();
const day = z.string().nullable().describe('YYYY-MM-DD');
const flag01 = z
  .union([z.literal(0), z.literal(1), z.boolean()], { error: 'Use 0 or 1' })
  .transform((v) => v === 1 || v === true);
const amountInput = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(1_000_000, `${label} is too large`)
    .refine((n) => Math.round(n * 100) === n * 100, `${label} has at most 2 decimals`);
const daysInput = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} is a whole number of days`)
    .min(0, `${label} cannot be negative`)
    .max(3650, `${label} is at most 3650`);
const isoName = z.string().trim().max(200, 'The ISO name is too long').nullable().optional();
/**
 * Group IDs as typed: spaces removed, split on commas, empties dropped (spec §5). Answered sorted and joined
 * with commas.
 */
export function normalizeGroupIds(raw: string): string[] {
  return [
    ...new Set(
      raw
        .replace(/\s+/g, '')
        .split(',')
        .filter((g) => g.length > 0),
    ),
  ];
}
const groupIds = z
  .string({ error: 'group_id is text' })
  .max(4000, 'Too many group IDs')
  .transform(normalizeGroupIds)
  .refine(
    (ids) => ids.every((g) => /^[A-Za-z0-9_-]{1,40}$/.test(g)),
    'A group ID has letters and digits only',
  );
/** The key of an existing spec row as the lists answer it (comma-joined; '' for the default row). */
const groupKey = z
  .string({ error: 'group_id is text' })
  .max(4000)
  .transform((s) => normalizeGroupIds(s).join(','));
const profile = z.enum(BONUS_PROFILES, { error: 'profile is PL or TR' });
const specPeriod = z.enum(SPEC_PERIODS, { error: 'period is W or M' });

/** The answer of every add, edit and delete: addable false means it cannot be saved even with force. */
export const bonusChangeAnswer = z.object({
  success: z.boolean(),
  /** When success is false: true means "save with force" would succeed (a warning); false an error. */
  addable: z.boolean(),
  message: z.string(),
});
export type BonusChangeAnswer = z.output<typeof bonusChangeAnswer>;

// ---------------------------------------------------------------- rows

/** A bonus row (spec §3) plus why it was computed (`explanation`) and how many matches it has. */
export const bonusRow = z.object({
  id: z.number(),
  mid: z.string(),
  dba_name: z.string(),
  iso_name: z.string(),
  group_id: z.string(),
  rm: text,
  sales_rep: text,
  merchant_profile: z.string(),
  open_date: day,
  close_date: day,
  bonus_date: z.string(),
  /** Approval, Activation or Placement Only; in the Monthly Extra table EPD or EFR. */
  bonus_type: z.string(),
  bonus_amount: money,
  do_not_pay: z.boolean(),
  note: text,
  worked_datetime: timestamp.nullable(),
  worked_by: text,
  volume: money,
  last_deposit_date: day,
  volume_threshold_date: day,
  ownership_type: text,
  equipment_model: text,
  /** The window this row was computed for, and the run kind. */
  period: z.enum(BONUS_PERIODS),
  window_start: z.string(),
  window_end: z.string(),
  /** Why: the spec, the rule, the equipment and the activation day, in words (docs/bonus.md). */
  explanation: z.string(),
  /** Earlier bonused merchants at the same address (the warning button). */
  match_count: z.number(),
});
export type BonusRow = z.output<typeof bonusRow>;

export const extraBonusRow = bonusRow.extend({
  extra_bonus: money,
  /** No when the merchant's regular bonus is do-not-pay, Yes when the extra type is Per Deal (spec §2.3). */
  reg_bonus_paid: z.enum(['Yes', 'No']),
});
export type ExtraBonusRow = z.output<typeof extraBonusRow>;

export const clawbackRow = bonusRow.extend({
  clawback_date: z.string(),
  clawback_reason: z.string(),
  clawback_flag: z.enum(CLAWBACK_FLAGS),
  do_not_clawback: z.boolean(),
  /** Yes unless the bonus was do-not-pay (spec §2.3 "Paid"). */
  paid: z.enum(['Yes', 'No']),
  clawback_amount: money,
});
export type ClawbackRow = z.output<typeof clawbackRow>;

export const bonusMatch = z.object({
  mid: z.string(),
  dba_name: z.string(),
  iso_name: z.string(),
  address: text,
  city: text,
  state: text,
  zipcode: text,
  bonus_date: z.string(),
  /** 1 when that merchant's bonus was clawed back. */
  clawed_back: z.union([z.literal(0), z.literal(1)]),
});
export type BonusMatch = z.output<typeof bonusMatch>;

export const bonusActivationRow = z.object({
  mid: z.string(),
  dba_name: z.string(),
  iso_name: z.string(),
  group_id: z.string(),
  rm: text,
  sales_rep: text,
  merchant_profile: z.string(),
  open_date: day,
  volume_threshold: money,
  /** Volume processed within the volume days. */
  volume: money,
  volume_days: z.number(),
  /** Days left to reach the threshold, never below 0 (spec §2.3). */
  days: z.number(),
  activation_status: z.enum(['Activated', 'Pending', 'Expired']),
  /** The day the threshold was reached, when it was. */
  activated_on: day,
});
export type BonusActivationRow = z.output<typeof bonusActivationRow>;

// ---------------------------------------------------------------- specifications

export const bonusIsoSpec = z.object({
  id: z.number(),
  /** null: the default spec (every ISO not listed or excluded). */
  iso_name: text,
  group_id: z.string(),
  amount: money,
  on_activation: z.boolean(),
  placement_only: z.boolean(),
  volume_days: z.number(),
  volume_threshold: money,
  profile: profile,
  period: specPeriod,
});
export type BonusIsoSpec = z.output<typeof bonusIsoSpec>;

export const bonusExcludeSpec = z.object({
  id: z.number(),
  iso_name: text,
  group_id: z.string(),
  profile: profile,
  period: specPeriod,
});
export type BonusExcludeSpec = z.output<typeof bonusExcludeSpec>;

export const clawbackSpec = z.object({
  id: z.number(),
  /** null on the default row (the first, which cannot be deleted). */
  iso_name: text,
  group_id: z.string(),
  closure_days: z.number(),
  volume_days: z.number(),
  volume_threshold: money,
  non_processing: z.boolean(),
  monthly_volume_threshold: money,
});
export type ClawbackSpec = z.output<typeof clawbackSpec>;

export const activationSpec = z.object({
  id: z.number(),
  iso_name: text,
  group_id: z.string(),
  volume_days: z.number(),
  volume_threshold: money,
});
export type ActivationSpec = z.output<typeof activationSpec>;

export const extraBonusSpec = z.object({
  id: z.number(),
  iso_name: z.string(),
  group_id: z.string(),
  extra_deals: z.number(),
  extra_amount: money,
  bonus_type: z.enum(EXTRA_BONUS_TYPES),
  start_date: z.string(),
  end_date: z.string(),
  enabled: z.boolean(),
});
export type ExtraBonusSpec = z.output<typeof extraBonusSpec>;

export const equipment = z.object({ id: z.number(), title: z.string(), model: z.string(), amount: money });
export type Equipment = z.output<typeof equipment>;
export const exclusiveEquipment = equipment.extend({ iso_name: z.string(), group_id: z.string() });
export type ExclusiveEquipment = z.output<typeof exclusiveEquipment>;

/** An equipment model merchants carry (the Model choices). */
export const equipmentModel = z.object({ model: z.string(), merchants: z.number() });
export const isoListEntry = z.object({ iso_name: z.string(), group_id: z.string() });
export type IsoListEntry = z.output<typeof isoListEntry>;

export const activityLogEntry = z.object({
  date_time: timestamp,
  user: z.string().nullable(),
  log_description: z.string(),
});
export type ActivityLogEntry = z.output<typeof activityLogEntry>;

/** A run window: the days it covers and the day it runs (the bonus date). */
export const bonusWindow = z.object({
  kind: z.enum(RUN_KINDS),
  start: z.string(),
  end: z.string(),
  runDate: z.string(),
});
export type BonusWindowAnswer = z.output<typeof bonusWindow>;

// ---------------------------------------------------------------- bodies

export const getBonusBody = z.strictObject({
  bonusType: z.enum(SPEC_PERIODS, { error: 'bonusType is W or M' }),
  /** Weekly: a day of the week wanted (its Thursday-to-Wednesday window); monthly: a day of the month whose 20th ends the window. */
  date: isoDate,
});
export const dateBody = z.strictObject({ date: isoDate });
export const getMatchesByMidBody = z.strictObject({
  mids: z.array(z.string().min(1).max(40)).min(1, 'Give at least one MID').max(1000, 'At most 1000 MIDs'),
});
export const matchesItem = z.object({ mid: z.string(), bonus_date: z.string(), matches: z.string() });
export const updateDoNotPayBody = z.strictObject({ id: rowId, do_not_pay: flag01 });
export const updateNoteBody = z.strictObject({
  id: rowId,
  note: z.string().max(2000, 'The note is at most 2000 characters'),
});
export const updateDoNotClawbackBody = z.strictObject({
  mid: z.string().min(1).max(40),
  clawback_date: isoDate,
  do_not_clawback: flag01,
});
export const profilePeriodBody = z.strictObject({ profile, period: specPeriod });

export const addBonusIsoBody = z.strictObject({
  profile,
  period: specPeriod,
  group_id: groupIds,
  amount: amountInput('Bonus'),
  force: z.boolean().default(false),
  /** When editing: the group_id of the row as it was listed. */
  edit: z.union([z.literal(false), z.string().max(4000)]).default(false),
  iso_name: isoName,
  on_activation: flag01.default(false),
  volume_days: daysInput('Days for volume').default(BONUS_DEFAULTS.volumeDays),
  volume_threshold: amountInput('Volume threshold').default(BONUS_DEFAULTS.volumeThreshold),
  placement_only: flag01.default(false),
});
export type AddBonusIsoBody = z.input<typeof addBonusIsoBody>;
export const addExcludeBody = z.strictObject({ profile, period: specPeriod, group_id: groupIds });
export const deleteBonusIsoBody = z.strictObject({ group_id: groupKey, profile, period: specPeriod });

export const addClawbackBody = z.strictObject({
  group_id: groupIds,
  closure_days: daysInput('Days for closure'),
  volume_days: daysInput('Days for volume'),
  volume_threshold: amountInput('Volume threshold'),
  edit: z.union([z.literal(false), z.string().max(4000)]).default(false),
  iso_name: isoName,
  non_processing: flag01.default(BONUS_DEFAULTS.nonProcessing),
  monthly_volume_threshold: amountInput('Monthly volume threshold').default(0),
});
export const groupKeyBody = z.strictObject({ group_id: groupKey });

export const addBonusEquipmentBody = z.strictObject({
  title: z.string().trim().min(1, 'Name is required').max(100),
  model: z.string().trim().min(1, 'Model is required').max(100),
  amount: amountInput('Amount'),
  /** When editing: the title of the row as it was listed. */
  edit: z.union([z.literal(false), z.string().max(100)]).default(false),
});
export const deleteBonusEquipmentBody = z.strictObject({ title: z.string().min(1).max(100) });
export const addExclusiveEquipmentBody = z.strictObject({
  group_id: groupIds,
  title: z.string().trim().min(1, 'Name is required').max(100),
  model: z.string().trim().min(1, 'Model is required').max(100),
  amount: amountInput('Amount'),
  edit: z.union([z.literal(false), z.string().max(4000)]).default(false),
  iso_name: isoName,
});
export const addActivationBody = z.strictObject({
  group_id: groupIds,
  volume_days: daysInput('Days for volume').default(BONUS_DEFAULTS.volumeDays),
  volume_threshold: amountInput('Volume threshold').default(BONUS_DEFAULTS.volumeThreshold),
  edit: z.union([z.literal(false), z.string().max(4000)]).default(false),
  iso_name: isoName,
});
export const addExtraBonusIsoBody = z
  .strictObject({
    group_id: groupIds,
    extra_deals: z.coerce
      .number({ error: 'Number of Deals is required' })
      .int('Number of Deals is a whole number')
      .min(1, 'Number of Deals is at least 1')
      .max(100_000),
    extra_amount: amountInput('Extra Bonus'),
    extra_type: z.enum(EXTRA_BONUS_TYPES, { error: 'extra_type is EPD or EFR' }),
    start_date: isoDate,
    end_date: isoDate,
    enabled: flag01.default(true),
    edit: z.union([z.literal(false), z.string().max(4000)]).default(false),
    iso_name: isoName,
  })
  .refine((b) => b.start_date <= b.end_date, {
    message: 'The start date must not be after the end date',
    path: ['end_date'],
  });

export const activityLogBody = z.strictObject({
  log_type: z.literal(BONUS_LOG_TYPE, { error: 'log_type is BNS' }),
  row_count: z.number().int().min(1).max(1000).default(BONUS_DEFAULTS.activityLogRows),
  page_num: z.number().int().min(0).max(100_000).default(0),
});

export const runBody = z.strictObject({
  kind: z.enum(RUN_KINDS, { error: 'kind is W, M, ME or CB' }),
  /** A day of the window wanted; omitted, the last complete window (run now) or the next one (preview). */
  date: isoDate.optional(),
});
export const runAnswer = z.object({ jobId: z.string(), window: bonusWindow });
export const previewAnswer = z.object({
  window: bonusWindow,
  bonuses: z.array(bonusRow.omit({ id: true })),
  clawbacks: z.array(clawbackRow.omit({ id: true })),
});
export const windowsAnswer = z.object({
  /** The Thursdays starting weekly windows, newest first. */
  weekly: z.array(z.string()),
  current: z.object({ W: bonusWindow, M: bonusWindow }),
  nextExtraRun: z.string(),
  nextClawbackRun: z.string(),
  /** The clawback run dates from 2022-07-20 up to today (spec §4). */
  clawbackDates: z.array(z.string()),
});

// ---------------------------------------------------------------- table definitions (the screens' columns)

const col = <Id extends string>(id: Id, label: string, type: ColumnDef['type'] = 'text') =>
  ({ id, label, type, sortable: true }) as const satisfies ColumnDef<Id>;

const merchantColumns = [
  col('mid', 'MID'),
  col('dba_name', 'DBA'),
  col('iso_name', 'ISO'),
  col('group_id', 'Group ID'),
  col('rm', 'RM'),
  col('sales_rep', 'Sales Rep Name'),
  col('merchant_profile', 'Profile'),
  col('open_date', 'Date Opened', 'date'),
] as const;

const tableDef = <C extends readonly ColumnDef[]>(columns: C) =>
  ({
    columns,
    pageSizes: BONUS_PAGE_SIZES,
    defaultPageSize: BONUS_DEFAULT_PAGE_SIZE,
    defaultSort: [{ id: 'mid', desc: false }],
  }) as const satisfies TableDef;

export const bonusTable = tableDef([
  ...merchantColumns,
  col('ownership_type', 'Ownership Type'),
  col('equipment_model', 'Equipment Model'),
  col('bonus_type', 'Bonus Type'),
  col('bonus_date', 'Bonus Date', 'date'),
  col('bonus_amount', 'Bonus', 'money'),
  col('note', 'Note'),
] as const);

export const extraBonusTable = tableDef([
  ...merchantColumns,
  col('bonus_date', 'Bonus Date', 'date'),
  col('bonus_type', 'Bonus Type'),
  col('extra_bonus', 'Extra Bonus', 'money'),
  col('reg_bonus_paid', 'Reg. Bonus Paid'),
  col('note', 'Note'),
] as const);

export const clawbackTable = tableDef([
  ...merchantColumns,
  col('close_date', 'Date Closed', 'date'),
  col('volume', 'Total Volume', 'money'),
  col('last_deposit_date', 'Last Deposit Date', 'date'),
  col('volume_threshold_date', 'Volume Threshold Date', 'date'),
  col('ownership_type', 'Ownership Type'),
  col('equipment_model', 'Equipment Model'),
  col('bonus_type', 'Bonus Type'),
  col('bonus_date', 'Bonus Date', 'date'),
  col('clawback_date', 'Clawback Date', 'date'),
  col('clawback_reason', 'Clawback Reason'),
  col('bonus_amount', 'Bonus', 'money'),
  col('paid', 'Paid'),
  col('note', 'Note'),
  col('do_not_clawback', 'Do Not Clawback'),
] as const);

export const activationTable = tableDef([
  ...merchantColumns,
  col('volume_threshold', 'Volume Threshold', 'money'),
  col('volume', 'Processed Volume', 'money'),
  col('days', 'Remaining Days', 'integer'),
  col('activation_status', 'Status'),
] as const);

// ---------------------------------------------------------------- calls

const specList = <T extends z.ZodType>(schema: T) => z.array(schema);

export const bonusEndpoints = {
  getMatchesByMid: endpoint({
    method: 'POST',
    path: bonusPaths.getMatchesByMid,
    summary: 'Earlier bonused merchants at the same address, city, state and zip as each given MID',
    input: getMatchesByMidBody,
    output: z.array(bonusMatch.extend({ for_mid: z.string() })),
  }),
  getMatches: endpoint({
    method: 'GET',
    path: bonusPaths.getMatches,
    summary: 'Every bonused merchant that has matches, with the matching MIDs as a comma list',
    output: z.array(matchesItem),
  }),
  updateDoNotPay: endpoint({
    method: 'POST',
    path: bonusPaths.updateDoNotPay,
    summary: 'Marks a bonus row do-not-pay (or clears it); kept across reruns (bonus_edit)',
    input: updateDoNotPayBody,
    output: bonusChangeAnswer,
  }),
  updateNote: endpoint({
    method: 'POST',
    path: bonusPaths.updateNote,
    summary: "Sets a bonus row's note; kept across reruns (bonus_edit)",
    input: updateNoteBody,
    output: bonusChangeAnswer,
  }),
  getBonus: endpoint({
    method: 'POST',
    path: bonusPaths.getBonus,
    summary: 'The bonus rows of one weekly or monthly window',
    input: getBonusBody,
    output: z.array(bonusRow),
  }),
  getExtraBonus: endpoint({
    method: 'POST',
    path: bonusPaths.getExtraBonus,
    summary: "The extra bonus rows of one month (the date's month)",
    input: dateBody,
    output: z.array(extraBonusRow),
  }),
  getClawback: endpoint({
    method: 'POST',
    path: bonusPaths.getClawback,
    summary: 'The clawback rows of one clawback run (the 20th of the date’s month)',
    input: dateBody,
    output: z.array(clawbackRow),
  }),
  updateDoNotClawback: endpoint({
    method: 'POST',
    path: bonusPaths.updateDoNotClawback,
    summary: 'Marks a CBN clawback do-not-clawback (or clears it); kept across reruns (bonus_edit)',
    input: updateDoNotClawbackBody,
    output: bonusChangeAnswer,
  }),
  getActivation: endpoint({
    method: 'GET',
    path: bonusPaths.getActivation,
    summary: 'Merchants paid on activation and where each stands against its volume threshold',
    output: z.array(bonusActivationRow),
  }),
  getIsoList: endpoint({
    method: 'GET',
    path: bonusPaths.getIsoList,
    summary: 'ISOs and their group IDs, to choose from in the specification forms',
    output: z.array(isoListEntry),
  }),
  addBonusIso: endpoint({
    method: 'POST',
    path: bonusPaths.addBonusIso,
    summary: 'Adds or edits an include bonus spec; overlapping group IDs need force (bonus_edit)',
    input: addBonusIsoBody,
    output: bonusChangeAnswer,
  }),
  getBonusIsoList: endpoint({
    method: 'POST',
    path: bonusPaths.getBonusIsoList,
    summary: 'The include bonus specs of a profile and period, the default first',
    input: profilePeriodBody,
    output: specList(bonusIsoSpec),
  }),
  getBonusExcludeIsoList: endpoint({
    method: 'POST',
    path: bonusPaths.getBonusExcludeIsoList,
    summary: 'The excluded group IDs of a profile and period',
    input: profilePeriodBody,
    output: specList(bonusExcludeSpec),
  }),
  addExcludeBonusIso: endpoint({
    method: 'POST',
    path: bonusPaths.addExcludeBonusIso,
    summary: 'Excludes group IDs from the default bonus of a profile and period (bonus_edit)',
    input: addExcludeBody,
    output: bonusChangeAnswer,
  }),
  deleteBonusIso: endpoint({
    method: 'POST',
    path: bonusPaths.deleteBonusIso,
    summary: 'Deletes an include bonus spec (bonus_edit)',
    input: deleteBonusIsoBody,
    output: bonusChangeAnswer,
  }),
  deleteExcludeBonusIso: endpoint({
    method: 'POST',
    path: bonusPaths.deleteExcludeBonusIso,
    summary: 'Deletes an exclusion (bonus_edit)',
    input: deleteBonusIsoBody,
    output: bonusChangeAnswer,
  }),
  getClawbackList: endpoint({
    method: 'GET',
    path: bonusPaths.getClawbackList,
    summary: 'The clawback specs, the default (undeletable) first',
    output: specList(clawbackSpec),
  }),
  addClawback: endpoint({
    method: 'POST',
    path: bonusPaths.addClawback,
    summary: 'Adds or edits a clawback spec (bonus_edit)',
    input: addClawbackBody,
    output: bonusChangeAnswer,
  }),
  deleteClawback: endpoint({
    method: 'POST',
    path: bonusPaths.deleteClawback,
    summary: 'Deletes a clawback spec; the default row cannot be deleted (bonus_edit)',
    input: groupKeyBody,
    output: bonusChangeAnswer,
  }),
  getEquipmentList: endpoint({
    method: 'GET',
    path: bonusPaths.getEquipmentList,
    summary: 'The equipment models merchants carry, with how many carry each',
    output: z.array(equipmentModel),
  }),
  getBonusEquipmentList: endpoint({
    method: 'GET',
    path: bonusPaths.getBonusEquipmentList,
    summary: 'Equipment bonus amounts by model, for every ISO',
    output: specList(equipment),
  }),
  addBonusEquipment: endpoint({
    method: 'POST',
    path: bonusPaths.addBonusEquipment,
    summary: 'Adds or edits an equipment bonus amount (bonus_edit)',
    input: addBonusEquipmentBody,
    output: bonusChangeAnswer,
  }),
  deleteBonusEquipment: endpoint({
    method: 'POST',
    path: bonusPaths.deleteBonusEquipment,
    summary: 'Deletes an equipment bonus amount (bonus_edit)',
    input: deleteBonusEquipmentBody,
    output: bonusChangeAnswer,
  }),
  getExclusiveBonusEquipmentList: endpoint({
    method: 'GET',
    path: bonusPaths.getExclusiveBonusEquipmentList,
    summary: 'Equipment bonus amounts for given ISO group IDs, which replace the general amounts',
    output: specList(exclusiveEquipment),
  }),
  addExclusiveEquipment: endpoint({
    method: 'POST',
    path: bonusPaths.addExclusiveEquipment,
    summary: 'Adds or edits an exclusive equipment amount (bonus_edit)',
    input: addExclusiveEquipmentBody,
    output: bonusChangeAnswer,
  }),
  deleteExclusiveEquipment: endpoint({
    method: 'POST',
    path: bonusPaths.deleteExclusiveEquipment,
    summary: 'Deletes an exclusive equipment amount (bonus_edit)',
    input: groupKeyBody,
    output: bonusChangeAnswer,
  }),
  getActivationList: endpoint({
    method: 'GET',
    path: bonusPaths.getActivationList,
    summary: 'The activation specs (days for volume, volume threshold) by ISO group IDs',
    output: specList(activationSpec),
  }),
  addActivation: endpoint({
    method: 'POST',
    path: bonusPaths.addActivation,
    summary: 'Adds or edits an activation spec (bonus_edit)',
    input: addActivationBody,
    output: bonusChangeAnswer,
  }),
  deleteActivation: endpoint({
    method: 'POST',
    path: bonusPaths.deleteActivation,
    summary: 'Deletes an activation spec (bonus_edit)',
    input: groupKeyBody,
    output: bonusChangeAnswer,
  }),
  getExtraBonusIsoList: endpoint({
    method: 'GET',
    path: bonusPaths.getExtraBonusIsoList,
    summary: 'The extra bonus specs',
    output: specList(extraBonusSpec),
  }),
  addExtraBonusIso: endpoint({
    method: 'POST',
    path: bonusPaths.addExtraBonusIso,
    summary: 'Adds or edits an extra bonus spec (bonus_edit)',
    input: addExtraBonusIsoBody,
    output: bonusChangeAnswer,
  }),
  deleteExtraBonusIso: endpoint({
    method: 'POST',
    path: bonusPaths.deleteExtraBonusIso,
    summary: 'Deletes an extra bonus spec (bonus_edit)',
    input: groupKeyBody,
    output: bonusChangeAnswer,
  }),
  getActivityLog: endpoint({
    method: 'POST',
    path: bonusPaths.getActivityLog,
    summary: 'The bonus activity log (runs and manual changes), newest first',
    input: activityLogBody,
    output: z.array(activityLogEntry),
  }),
  windows: endpoint({
    method: 'GET',
    path: bonusPaths.windows,
    summary: 'The bonus windows: weekly start days, the current windows, the next runs, the clawback dates',
    output: windowsAnswer,
  }),
  run: endpoint({
    method: 'POST',
    path: bonusPaths.run,
    summary: "Runs a window now as a job; replaces that window's unpaid, unworked rows (manage_jobs)",
    input: runBody,
    output: runAnswer,
  }),
  preview: endpoint({
    method: 'POST',
    path: bonusPaths.preview,
    summary: 'Computes a window without saving it (dry run) (manage_jobs)',
    input: runBody,
    output: previewAnswer,
  }),
};

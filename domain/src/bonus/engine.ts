import type {
  BonusProfile,
  ClawbackFlag,
  ClawbackReason,
  ExtraBonusType,
  SpecPeriod,
} from '../contracts/bonus';
import { type Money, money, sum, toDecimalString } from '../money';
import { addDays, type BonusWindow, daysFrom } from './windows';

/**
 * The bonus engine: who earns what in a window, extra bonuses, clawbacks and matches. Pure: the server loads the
 * facts, calls these, and stores what they answer. docs/bonus.md explains every rule with worked examples, and
 * bonus.test.ts checks them against hand-computed cases. Money is in cents (Money); days are YYYY-MM-DD.
 */

export interface MerchantFacts {
  mid: string;
  dba: string;
  iso: string;
  groupId: string;
  /** As the merchant record has it: PayLo, Traditional, High Risk… */
  profile: string;
  approvedOn: string;
  openedOn: string;
  closedOn: string | null;
  equipmentModel: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  /** Processed volume by day, oldest first; days without volume may be absent. */
  volumes: readonly { day: string; volume: Money }[];
}

export interface IncludeSpec {
  id: number;
  /** null: the default spec. */
  iso: string | null;
  groupIds: readonly string[];
  amount: Money;
  onActivation: boolean;
  placementOnly: boolean;
  volumeDays: number;
  volumeThreshold: Money;
  profile: BonusProfile;
  period: SpecPeriod;
}
export interface ExcludeSpec {
  groupIds: readonly string[];
  profile: BonusProfile;
  period: SpecPeriod;
}
export interface EquipmentAmount {
  title: string;
  model: string;
  amount: Money;
  /** Set on exclusive equipment: the group IDs it applies to. */
  groupIds?: readonly string[];
}
export interface ClawbackRule {
  id: number;
  /** null: the default row. */
  iso: string | null;
  groupIds: readonly string[];
  closureDays: number;
  volumeDays: number;
  volumeThreshold: Money;
  nonProcessing: boolean;
  monthlyVolumeThreshold: Money;
}
export interface ExtraSpec {
  id: number;
  iso: string;
  groupIds: readonly string[];
  deals: number;
  amount: Money;
  type: ExtraBonusType;
  startDate: string;
  endDate: string;
  enabled: boolean;
}

/** The merchant record's profile as a bonus profile; other profiles (High Risk) earn no bonus. */
export function bonusProfile(profile: string): BonusProfile | null {
  if (profile === 'PayLo') return 'PL';
  if (profile === 'Traditional') return 'TR';
  return null;
}

const covers = (groupIds: readonly string[], groupId: string) => groupIds.includes(groupId);

export type SpecChoice = { kind: 'spec'; spec: IncludeSpec; why: string } | { kind: 'none'; why: string };

/**
 * The include spec that decides a merchant's bonus in `period`. In order: a named ISO spec of this profile and
 * period listing the merchant's group; none if a named spec of the other period lists it (it is paid there);
 * none if excluded here; else the default spec of this period, where a weekly default applies only when the
 * profile has no monthly default (so a default never pays twice).
 */
export function chooseSpec(
  merchant: Pick<MerchantFacts, 'groupId' | 'profile'>,
  period: SpecPeriod,
  includes: readonly IncludeSpec[],
  excludes: readonly ExcludeSpec[],
): SpecChoice {
  const profile = bonusProfile(merchant.profile);
  if (!profile) return { kind: 'none', why: `profile ${merchant.profile} earns no bonus` };
  const mine = includes.filter((s) => s.profile === profile);
  const named = mine.find(
    (s) => s.iso !== null && s.period === period && covers(s.groupIds, merchant.groupId),
  );
  if (named)
    return {
      kind: 'spec',
      spec: named,
      why: `spec #${named.id} for ${named.iso} lists group ${merchant.groupId}`,
    };
  const other = mine.find(
    (s) => s.iso !== null && s.period !== period && covers(s.groupIds, merchant.groupId),
  );
  if (other)
    return {
      kind: 'none',
      why: `group ${merchant.groupId} is paid by the ${other.period} spec #${other.id}`,
    };
  if (
    excludes.some((e) => e.profile === profile && e.period === period && covers(e.groupIds, merchant.groupId))
  )
    return { kind: 'none', why: `group ${merchant.groupId} is excluded` };
  const fallback = mine.find((s) => s.iso === null && s.period === period);
  if (!fallback) return { kind: 'none', why: 'no default spec for this period' };
  if (period === 'W' && mine.some((s) => s.iso === null && s.period === 'M'))
    return { kind: 'none', why: 'the monthly default pays this profile' };
  return { kind: 'spec', spec: fallback, why: `default spec #${fallback.id}` };
}

export interface Activation {
  /** The day cumulative volume from approval reached the threshold, if within the volume days. */
  day: string | null;
  /** The last day that counts: approval + volume days − 1. */
  deadline: string;
  /** Volume from approval to the deadline (or to `asOf` when earlier). */
  volume: Money;
}

/**
 * The days whose volume counts towards activation: from approval (day 1) through the volume days' last, or through
 * `asOf` when that is earlier. A day outside them does not change `activation`.
 */
export function activationSpan(
  approvedOn: string,
  volumeDays: number,
  asOf?: string,
): { deadline: string; last: string } {
  const deadline = addDays(approvedOn, Math.max(volumeDays, 1) - 1);
  return { deadline, last: asOf && asOf < deadline ? asOf : deadline };
}

/** Whether and when a merchant reached `threshold` within `volumeDays` of approval (the approval day is day 1). */
export function activation(
  merchant: Pick<MerchantFacts, 'approvedOn' | 'volumes'>,
  volumeDays: number,
  threshold: Money,
  asOf?: string,
): Activation {
  const { deadline, last } = activationSpan(merchant.approvedOn, volumeDays, asOf);
  let total = money(0);
  let day: string | null = null;
  for (const v of merchant.volumes) {
    if (v.day < merchant.approvedOn || v.day > last) continue;
    total = (total + v.volume) as Money;
    if (day === null && total >= threshold) day = v.day;
  }
  return { day, deadline, volume: total };
}

/** The equipment amount for a merchant's model: an exclusive amount for its group first, else the general one. */
export function equipmentFor(
  merchant: Pick<MerchantFacts, 'groupId' | 'equipmentModel'>,
  general: readonly EquipmentAmount[],
  exclusive: readonly EquipmentAmount[],
): EquipmentAmount | null {
  const model = merchant.equipmentModel;
  if (!model) return null;
  return (
    exclusive.find((e) => e.model === model && covers(e.groupIds ?? [], merchant.groupId)) ??
    general.find((e) => e.model === model) ??
    null
  );
}

export interface ComputedBonus {
  mid: string;
  specId: number;
  bonusType: 'Approval' | 'Activation' | 'Placement Only';
  /** Spec amount (0 when Placement Only) plus the equipment amount. */
  amount: Money;
  specAmount: Money;
  equipmentAmount: Money;
  /** The activation day, for bonuses paid on activation. */
  activatedOn: string | null;
  explanation: string;
}

const dollars = (m: Money) => `$${toDecimalString(m)}`;

/**
 * The regular bonuses of one weekly or monthly window. A merchant earns once in its life: those in
 * `alreadyBonused` (rows of other windows) are skipped. Paid on approval: approved within the window. Paid on
 * activation: the threshold reached within the volume days, on a day within the window.
 */
export function computeBonuses(input: {
  window: BonusWindow & { kind: SpecPeriod };
  merchants: readonly MerchantFacts[];
  includes: readonly IncludeSpec[];
  excludes: readonly ExcludeSpec[];
  equipment: readonly EquipmentAmount[];
  exclusiveEquipment: readonly EquipmentAmount[];
  alreadyBonused: ReadonlySet<string>;
}): ComputedBonus[] {
  const { window } = input;
  const out: ComputedBonus[] = [];
  for (const m of input.merchants) {
    if (input.alreadyBonused.has(m.mid) || m.approvedOn > window.end) continue;
    const choice = chooseSpec(m, window.kind, input.includes, input.excludes);
    if (choice.kind === 'none') continue;
    const { spec } = choice;
    let bonusType: ComputedBonus['bonusType'];
    let activatedOn: string | null = null;
    let rule: string;
    if (spec.placementOnly || !spec.onActivation) {
      if (m.approvedOn < window.start) continue;
      bonusType = spec.placementOnly ? 'Placement Only' : 'Approval';
      rule = `${spec.placementOnly ? 'Placement Only, paid' : 'paid'} on approval ${m.approvedOn}`;
    } else {
      const act = activation(m, spec.volumeDays, spec.volumeThreshold);
      if (!act.day || act.day < window.start || act.day > window.end) continue;
      bonusType = 'Activation';
      activatedOn = act.day;
      rule = `paid on activation: ${dollars(spec.volumeThreshold)} reached on ${act.day}, within ${spec.volumeDays} days of approval ${m.approvedOn}`;
    }
    const specAmount = spec.placementOnly ? money(0) : spec.amount;
    const eq = equipmentFor(m, input.equipment, input.exclusiveEquipment);
    const equipmentAmount = eq ? eq.amount : money(0);
    const equipmentWhy = eq
      ? `; equipment ${eq.title} (${eq.model}${eq.groupIds ? ', exclusive' : ''}) ${dollars(eq.amount)}`
      : m.equipmentModel
        ? `; no equipment amount for ${m.equipmentModel}`
        : '';
    out.push({
      mid: m.mid,
      specId: spec.id,
      bonusType,
      amount: (specAmount + equipmentAmount) as Money,
      specAmount,
      equipmentAmount,
      activatedOn,
      explanation: `${choice.why}; ${rule}; bonus ${dollars(specAmount)}${equipmentWhy}`,
    });
  }
  return out;
}

export interface ComputedExtra {
  mid: string;
  specId: number;
  type: ExtraBonusType;
  amount: Money;
  explanation: string;
}

/**
 * Extra bonuses of one month (the Monthly Extra window). For each enabled spec: the deals are its groups'
 * merchants approved within the window and within the spec's start and end dates. With at least `deals` of
 * them, Per Deal (EPD) pays the extra amount on every deal; Flat Rate (EFR) pays it once, on the deal that
 * reached the count (the N-th by approval day, then MID).
 */
export function computeExtraBonuses(input: {
  window: BonusWindow;
  merchants: readonly MerchantFacts[];
  specs: readonly ExtraSpec[];
}): ComputedExtra[] {
  const { window } = input;
  const out: ComputedExtra[] = [];
  for (const spec of input.specs) {
    if (!spec.enabled) continue;
    const from = spec.startDate > window.start ? spec.startDate : window.start;
    const to = spec.endDate < window.end ? spec.endDate : window.end;
    if (from > to) continue;
    const deals = input.merchants
      .filter((m) => covers(spec.groupIds, m.groupId) && m.approvedOn >= from && m.approvedOn <= to)
      .sort((a, b) =>
        a.approvedOn === b.approvedOn ? a.mid.localeCompare(b.mid) : a.approvedOn < b.approvedOn ? -1 : 1,
      );
    if (deals.length < spec.deals) continue;
    const why = `spec #${spec.id} for ${spec.iso}: ${deals.length} deals approved ${from}..${to}, at least ${spec.deals} needed`;
    if (spec.type === 'EPD') {
      for (const d of deals)
        out.push({
          mid: d.mid,
          specId: spec.id,
          type: 'EPD',
          amount: spec.amount,
          explanation: `${why}; ${dollars(spec.amount)} per deal`,
        });
    } else {
      const nth = deals[spec.deals - 1];
      if (nth)
        out.push({
          mid: nth.mid,
          specId: spec.id,
          type: 'EFR',
          amount: spec.amount,
          explanation: `${why}; flat ${dollars(spec.amount)} on the deal that reached ${spec.deals}`,
        });
    }
  }
  return out;
}

/** The clawback rule that applies to a group: a named row listing it, else the default row. */
export function chooseClawbackRule(groupId: string, rules: readonly ClawbackRule[]): ClawbackRule | null {
  return (
    rules.find((r) => r.iso !== null && covers(r.groupIds, groupId)) ??
    rules.find((r) => r.iso === null) ??
    null
  );
}

/** A clawback looks back this many months of bonuses: older bonuses are settled. */
export const CLAWBACK_LOOKBACK_MONTHS = 12;

export interface BonusedMerchant {
  merchant: MerchantFacts;
  bonusDate: string;
  amount: Money;
  doNotPay: boolean;
  /** The volume figures, when the caller summed them itself; otherwise they are summed from merchant.volumes. */
  volumes?: ClawbackVolumes;
}

/** The volume figures the clawback rules read, for one merchant, rule and run date. */
export interface ClawbackVolumes {
  /** From opening to the run date. */
  totalVolume: Money;
  /** The last day with volume, on or before the run date. */
  lastDepositDate: string | null;
  /** From opening to the volume threshold date (the rule's volume days); 0 when the rule has none. */
  volumeWithinDays: Money;
  /** In the last full calendar month before the run date. */
  lastMonthVolume: Money;
}

const monthStartOf = (day: string) => `${day.slice(0, 7)}-01`;

/** The day ranges the clawback rules read: the server sums them in SQL with the same bounds. */
export function clawbackRanges(openedOn: string, rule: Pick<ClawbackRule, 'volumeDays'>, runDate: string) {
  return {
    volumeThresholdDate: rule.volumeDays > 0 ? addDays(openedOn, rule.volumeDays - 1) : null,
    ...lastFullMonth(runDate),
  };
}

/** The last full calendar month before a run date: what the monthly volume threshold reads. */
export function lastFullMonth(runDate: string) {
  const lastMonthEnd = addDays(monthStartOf(runDate), -1);
  return { lastMonthStart: monthStartOf(lastMonthEnd), lastMonthEnd };
}

/** The figures of ClawbackVolumes summed from a merchant's daily volumes. */
export function clawbackVolumes(
  m: Pick<MerchantFacts, 'openedOn' | 'volumes'>,
  rule: Pick<ClawbackRule, 'volumeDays'>,
  runDate: string,
): ClawbackVolumes {
  const r = clawbackRanges(m.openedOn, rule, runDate);
  const upTo = m.volumes.filter((v) => v.day >= m.openedOn && v.day <= runDate);
  const between = (from: string, to: string) =>
    sum(upTo.filter((v) => v.day >= from && v.day <= to).map((v) => v.volume));
  return {
    totalVolume: sum(upTo.map((v) => v.volume)),
    lastDepositDate: upTo.filter((v) => v.volume > 0n).at(-1)?.day ?? null,
    volumeWithinDays: r.volumeThresholdDate ? between(m.openedOn, r.volumeThresholdDate) : money(0),
    lastMonthVolume: between(r.lastMonthStart, r.lastMonthEnd),
  };
}

export interface ComputedClawback {
  mid: string;
  ruleId: number;
  reason: ClawbackReason;
  /** The reason in words (the Clawback Reason column). */
  reasonText: string;
  flag: ClawbackFlag;
  /** What is taken back: the bonus when it was paid, 0 when it was do-not-pay. */
  amount: Money;
  totalVolume: Money;
  lastDepositDate: string | null;
  /** The last day the volume threshold could be reached (open + volume days − 1). */
  volumeThresholdDate: string | null;
  explanation: string;
}

/** The earliest bonus date a run on `runDate` still looks at (bonuses on or before it are settled). */
export function clawbackLookbackStart(runDate: string): string {
  return `${Number(runDate.slice(0, 4)) - CLAWBACK_LOOKBACK_MONTHS / 12}${runDate.slice(4)}`;
}

/**
 * The clawbacks of the run on `runDate`. Each bonused merchant is looked at once per run, with its rule (named,
 * else default), and the first rule broken, in this order, claws the bonus back:
 * closure: closed on or before the run, within the closure days of opening (0 days: rule off);
 * volume: the volume days since opening have passed and their volume is below the threshold (0: off);
 * non-processing: no volume at all from opening to the run, at least 30 days after opening (rule on/off);
 * monthly volume: the last full calendar month's volume below the threshold, for a merchant open before that
 * month (0: off).
 * Those already clawed back by an earlier run and bonuses older than the lookback are skipped. Flag CBY when the
 * merchant is closed by the run date (final), CBN when it is still open (negotiable: Do Not Clawback allowed).
 */
export function computeClawbacks(input: {
  runDate: string;
  bonused: readonly BonusedMerchant[];
  rules: readonly ClawbackRule[];
  alreadyClawedBack: ReadonlySet<string>;
}): ComputedClawback[] {
  const { runDate } = input;
  const lookbackFrom = clawbackLookbackStart(runDate);
  const out: ComputedClawback[] = [];
  for (const b of input.bonused) {
    const m = b.merchant;
    if (input.alreadyClawedBack.has(m.mid) || b.bonusDate > runDate || b.bonusDate <= lookbackFrom) continue;
    const rule = chooseClawbackRule(m.groupId, input.rules);
    if (!rule) continue;
    const v = b.volumes ?? clawbackVolumes(m, rule, runDate);
    const { volumeThresholdDate, lastMonthStart } = clawbackRanges(m.openedOn, rule, runDate);
    const closed = m.closedOn !== null && m.closedOn <= runDate;
    let reason: ClawbackReason | null = null;
    let reasonText = '';
    if (
      closed &&
      rule.closureDays > 0 &&
      m.closedOn &&
      daysFrom(m.openedOn, m.closedOn) <= rule.closureDays
    ) {
      reason = 'closure';
      reasonText = `Closed ${m.closedOn}, ${daysFrom(m.openedOn, m.closedOn)} days after opening (within ${rule.closureDays})`;
    }
    if (
      !reason &&
      volumeThresholdDate &&
      rule.volumeThreshold > 0n &&
      volumeThresholdDate < runDate &&
      v.volumeWithinDays < rule.volumeThreshold
    ) {
      reason = 'volume';
      reasonText = `Volume ${dollars(v.volumeWithinDays)} within ${rule.volumeDays} days, below ${dollars(rule.volumeThreshold)}`;
    }
    if (!reason && rule.nonProcessing && v.totalVolume === 0n && daysFrom(m.openedOn, runDate) >= 30) {
      reason = 'non_processing';
      reasonText = `No volume from opening ${m.openedOn} to ${runDate}`;
    }
    if (
      !reason &&
      rule.monthlyVolumeThreshold > 0n &&
      m.openedOn < lastMonthStart &&
      v.lastMonthVolume < rule.monthlyVolumeThreshold
    ) {
      reason = 'monthly_volume';
      reasonText = `Volume ${dollars(v.lastMonthVolume)} in ${lastMonthStart.slice(0, 7)}, below ${dollars(rule.monthlyVolumeThreshold)}`;
    }
    if (!reason) continue;
    out.push({
      mid: m.mid,
      ruleId: rule.id,
      reason,
      reasonText,
      flag: closed ? 'CBY' : 'CBN',
      amount: b.doNotPay ? money(0) : b.amount,
      totalVolume: v.totalVolume,
      lastDepositDate: v.lastDepositDate,
      volumeThresholdDate,
      explanation: `${rule.iso === null ? `default clawback rule #${rule.id}` : `clawback rule #${rule.id} for ${rule.iso}`}; ${reasonText}; ${closed ? 'CBY: merchant closed' : 'CBN: merchant open, negotiable'}`,
    });
  }
  return out;
}

/** An address as compared for matches: case, punctuation and repeated spaces ignored. */
export function addressKey(m: Pick<MerchantFacts, 'address' | 'city' | 'state' | 'zip'>): string | null {
  if (!m.address || !m.city || !m.state || !m.zip) return null;
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  return [norm(m.address), norm(m.city), norm(m.state), m.zip.trim().slice(0, 5)].join('|');
}

export interface MatchCandidate {
  mid: string;
  addressKey: string | null;
  bonusDate: string;
  clawedBack: boolean;
}

/** The earlier bonused merchants (bonus date before, another MID) at the same address as `subject`. */
export function findMatches(subject: MatchCandidate, earlier: readonly MatchCandidate[]): MatchCandidate[] {
  if (!subject.addressKey) return [];
  return earlier.filter(
    (e) => e.mid !== subject.mid && e.addressKey === subject.addressKey && e.bonusDate < subject.bonusDate,
  );
}

import { describe, expect, it } from 'vitest';
import { type Money, money, parseMoney } from '../money';
import {
  activation,
  addressKey,
  type ClawbackRule,
  chooseSpec,
  computeBonuses,
  computeClawbacks,
  computeExtraBonuses,
  type EquipmentAmount,
  type ExtraSpec,
  findMatches,
  type IncludeSpec,
  type MerchantFacts,
} from './engine';
import {
  clawbackDates,
  dueWindows,
  extraWindow,
  lastDueWindow,
  monthlyWindow,
  nextWindow,
  weeklyWindow,
} from './windows';

// Every expected figure below was worked out by hand (see docs/bonus.md), not by running the engine.
const $ = (s: string): Money => parseMoney(s);
const merchant = (over: Partial<MerchantFacts> & { mid: string }): MerchantFacts => ({
  dba: `DBA ${over.mid}`,
  iso: 'Summit',
  groupId: 'G1',
  profile: 'Traditional',
  approvedOn: '2024-03-05',
  openedOn: '2024-03-05',
  closedOn: null,
  equipmentModel: null,
  address: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  volumes: [],
  ...over,
});
const spec = (over: Partial<IncludeSpec> & { id: number }): IncludeSpec => ({
  iso: 'Summit',
  groupIds: ['G1'],
  amount: $('150'),
  onActivation: false,
  placementOnly: false,
  volumeDays: 30,
  volumeThreshold: $('250'),
  profile: 'TR',
  period: 'M',
  ...over,
});

describe('windows', () => {
  it('weekly runs Thursday to the following Wednesday from 2022-05-26, run on the next Thursday', () => {
    expect(weeklyWindow('2022-05-26')).toEqual({
      kind: 'W',
      start: '2022-05-26',
      end: '2022-06-01',
      runDate: '2022-06-02',
    });
    // 2024-03-06 is a Wednesday: the window started Thursday 2024-02-29.
    expect(weeklyWindow('2024-03-06')).toEqual({
      kind: 'W',
      start: '2024-02-29',
      end: '2024-03-06',
      runDate: '2024-03-07',
    });
    expect(weeklyWindow('2022-05-25')).toBeNull();
  });
  it('monthly runs from the 21st to the 20th, the first from 2022-06-21; the 1st of a month picks the one ending on its 20th', () => {
    expect(monthlyWindow('2022-07-01')).toEqual({
      kind: 'M',
      start: '2022-06-21',
      end: '2022-07-20',
      runDate: '2022-07-21',
    });
    expect(monthlyWindow('2024-03-21')?.end).toBe('2024-04-20');
    expect(monthlyWindow('2024-01-10')).toEqual({
      kind: 'M',
      start: '2023-12-21',
      end: '2024-01-20',
      runDate: '2024-01-21',
    });
    expect(monthlyWindow('2022-06-20')).toBeNull();
  });
  it('monthly extra is the calendar month from 2023-06, run the day after it ends', () => {
    expect(extraWindow('2024-02-10')).toEqual({
      kind: 'ME',
      start: '2024-02-01',
      end: '2024-02-29',
      runDate: '2024-03-01',
    });
    expect(extraWindow('2023-05-31')).toBeNull();
  });
  it('clawback dates are the 20th of each month from 2022-07-20', () => {
    expect(clawbackDates('2022-10-19')).toEqual(['2022-07-20', '2022-08-20', '2022-09-20']);
    expect(clawbackDates('2022-10-20').at(-1)).toBe('2022-10-20');
  });
  it('last due and next windows', () => {
    // On Thursday 2024-03-07 the window ending Wednesday 03-06 is due; the next is 03-07..03-13.
    expect(lastDueWindow('W', '2024-03-07')?.start).toBe('2024-02-29');
    expect(lastDueWindow('W', '2024-03-06')?.start).toBe('2024-02-22');
    expect(nextWindow('W', '2024-03-07')?.start).toBe('2024-03-07');
    expect(lastDueWindow('M', '2024-03-21')?.end).toBe('2024-03-20');
    expect(lastDueWindow('M', '2024-03-20')?.end).toBe('2024-02-20');
    expect(lastDueWindow('CB', '2024-03-19')?.runDate).toBe('2024-02-20');
    expect(nextWindow('CB', '2024-03-19')?.runDate).toBe('2024-03-20');
    expect(lastDueWindow('ME', '2024-03-01')?.start).toBe('2024-02-01');
  });
  it('due windows follow each other without gap or overlap', () => {
    const monthly = dueWindows('M', '2022-09-30');
    expect(monthly.map((w) => [w.start, w.end])).toEqual([
      ['2022-06-21', '2022-07-20'],
      ['2022-07-21', '2022-08-20'],
      ['2022-08-21', '2022-09-20'],
    ]);
    expect(dueWindows('W', '2022-06-09').map((w) => w.start)).toEqual(['2022-05-26', '2022-06-02']);
  });
});

describe('who earns what', () => {
  const includes = [
    spec({ id: 1, iso: null, groupIds: [], amount: $('100') }),
    spec({ id: 2, groupIds: ['G1', 'G2'], amount: $('150') }),
    spec({ id: 3, groupIds: ['G9'], period: 'W', amount: $('75') }),
  ];
  const excludes = [{ groupIds: ['G5'], profile: 'TR' as const, period: 'M' as const }];
  it('a named spec listing the group wins, then the other period, then exclusions, then the default', () => {
    expect(chooseSpec({ groupId: 'G2', profile: 'Traditional' }, 'M', includes, excludes)).toMatchObject({
      kind: 'spec',
      spec: { id: 2 },
    });
    expect(chooseSpec({ groupId: 'G9', profile: 'Traditional' }, 'M', includes, excludes).kind).toBe('none');
    expect(chooseSpec({ groupId: 'G5', profile: 'Traditional' }, 'M', includes, excludes)).toMatchObject({
      kind: 'none',
      why: 'group G5 is excluded',
    });
    expect(chooseSpec({ groupId: 'G7', profile: 'Traditional' }, 'M', includes, excludes)).toMatchObject({
      kind: 'spec',
      spec: { id: 1 },
    });
    expect(chooseSpec({ groupId: 'G7', profile: 'PayLo' }, 'M', includes, excludes).kind).toBe('none');
    expect(chooseSpec({ groupId: 'G7', profile: 'High Risk' }, 'M', includes, excludes).kind).toBe('none');
  });
  it('a weekly default pays only when the profile has no monthly default', () => {
    const both = [...includes, spec({ id: 4, iso: null, groupIds: [], period: 'W' })];
    expect(chooseSpec({ groupId: 'G7', profile: 'Traditional' }, 'W', both, []).kind).toBe('none');
    expect(chooseSpec({ groupId: 'G7', profile: 'Traditional' }, 'W', both.slice(1), [])).toMatchObject({
      kind: 'spec',
      spec: { id: 4 },
    });
  });

  const window = { kind: 'M' as const, start: '2024-02-21', end: '2024-03-20', runDate: '2024-03-21' };
  const equipment: EquipmentAmount[] = [{ title: 'Terminal', model: 'A920', amount: $('50') }];
  const exclusive: EquipmentAmount[] = [
    { title: 'Terminal (Summit)', model: 'A920', amount: $('80'), groupIds: ['G2'] },
  ];
  const run = (merchants: MerchantFacts[], specs: IncludeSpec[] = includes, already = new Set<string>()) =>
    computeBonuses({
      window,
      merchants,
      includes: specs,
      excludes,
      equipment,
      exclusiveEquipment: exclusive,
      alreadyBonused: already,
    });

  it('pays on approval within the window, plus the equipment amount (exclusive before general)', () => {
    const rows = run([
      merchant({ mid: 'A', groupId: 'G1', approvedOn: '2024-02-21', equipmentModel: 'A920' }), // 150 + 50
      merchant({ mid: 'B', groupId: 'G2', approvedOn: '2024-03-20', equipmentModel: 'A920' }), // 150 + 80
      merchant({ mid: 'C', groupId: 'G7', approvedOn: '2024-03-01', equipmentModel: 'X1' }), // default 100, no amount for X1
      merchant({ mid: 'D', groupId: 'G1', approvedOn: '2024-02-20' }), // before the window
      merchant({ mid: 'E', groupId: 'G1', approvedOn: '2024-03-21' }), // after
      merchant({ mid: 'F', groupId: 'G5', approvedOn: '2024-03-01' }), // excluded
    ]);
    expect(rows.map((r) => [r.mid, r.bonusType, r.amount])).toEqual([
      ['A', 'Approval', money(20000)],
      ['B', 'Approval', money(23000)],
      ['C', 'Approval', money(10000)],
    ]);
    expect(rows[1]?.explanation).toContain('Terminal (Summit) (A920, exclusive) $80.00');
    expect(rows[2]?.explanation).toContain('no equipment amount for X1');
  });
  it('a merchant earns once: one bonused in another window is skipped', () => {
    expect(run([merchant({ mid: 'A', approvedOn: '2024-03-01' })], includes, new Set(['A']))).toEqual([]);
  });
  it('Placement Only pays 0 (plus equipment) on approval even when the spec says on activation', () => {
    const specs = [spec({ id: 5, placementOnly: true, onActivation: true, amount: $('150') })];
    const rows = run([merchant({ mid: 'P', approvedOn: '2024-03-02', equipmentModel: 'A920' })], specs);
    expect(rows.map((r) => [r.bonusType, r.specAmount, r.amount])).toEqual([
      ['Placement Only', money(0), money(5000)],
    ]);
  });
  it('pays on activation: the day cumulative volume from approval reaches the threshold, within the volume days, in the window', () => {
    const specs = [spec({ id: 6, onActivation: true, volumeDays: 30, volumeThreshold: $('250') })];
    const vols = (...pairs: [string, string][]) => pairs.map(([day, v]) => ({ day, volume: $(v) }));
    const rows = run(
      [
        // approved 02-01, 100 + 100 + 60 = 260 on 02-25 (day 25 of 30): activates 02-25, inside the window.
        merchant({
          mid: 'H',
          approvedOn: '2024-02-01',
          volumes: vols(['2024-02-03', '100'], ['2024-02-10', '100'], ['2024-02-25', '60']),
        }),
        // reaches 250 on 03-05, day 31 after approval 02-04 (deadline 03-04): never activates.
        merchant({
          mid: 'I',
          approvedOn: '2024-02-04',
          volumes: vols(['2024-02-05', '200'], ['2024-03-05', '50']),
        }),
        // activates 02-15, before the window: paid in the previous window, not this one.
        merchant({ mid: 'J', approvedOn: '2024-02-10', volumes: vols(['2024-02-15', '300']) }),
      ],
      specs,
    );
    expect(rows.map((r) => [r.mid, r.bonusType, r.activatedOn, r.amount])).toEqual([
      ['H', 'Activation', '2024-02-25', money(15000)],
    ]);
    expect(
      activation(
        merchant({
          mid: 'I',
          approvedOn: '2024-02-04',
          volumes: vols(['2024-02-05', '200'], ['2024-03-05', '50']),
        }),
        30,
        $('250'),
      ),
    ).toEqual({
      day: null,
      deadline: '2024-03-04',
      volume: money(20000),
    });
  });
});

describe('extra bonuses', () => {
  const window = { kind: 'ME' as const, start: '2024-02-01', end: '2024-02-29', runDate: '2024-03-01' };
  const deals = ['2024-02-02', '2024-02-05', '2024-02-05', '2024-02-20'].map((d, i) =>
    merchant({ mid: `M${i}`, approvedOn: d, groupId: i === 3 ? 'G2' : 'G1' }),
  );
  const extra = (over: Partial<ExtraSpec>): ExtraSpec => ({
    id: 1,
    iso: 'Summit',
    groupIds: ['G1', 'G2'],
    deals: 3,
    amount: $('200'),
    type: 'EPD',
    startDate: '2024-01-01',
    endDate: '2024-12-31',
    enabled: true,
    ...over,
  });
  it('Per Deal pays every deal once the count is reached', () => {
    const rows = computeExtraBonuses({ window, merchants: deals, specs: [extra({})] });
    expect(rows.map((r) => [r.mid, r.amount])).toEqual([
      ['M0', money(20000)],
      ['M1', money(20000)],
      ['M2', money(20000)],
      ['M3', money(20000)],
    ]);
  });
  it('Flat Rate pays once, on the deal that reached the count', () => {
    const rows = computeExtraBonuses({
      window,
      merchants: deals,
      specs: [extra({ type: 'EFR', amount: $('500') })],
    });
    expect(rows.map((r) => [r.mid, r.type, r.amount])).toEqual([['M2', 'EFR', money(50000)]]);
  });
  it('counts only deals between the spec dates, and nothing when disabled or short', () => {
    expect(
      computeExtraBonuses({ window, merchants: deals, specs: [extra({ startDate: '2024-02-05' })] }).map(
        (r) => r.mid,
      ),
    ).toEqual(['M1', 'M2', 'M3']);
    expect(
      computeExtraBonuses({ window, merchants: deals, specs: [extra({ startDate: '2024-02-06' })] }),
    ).toEqual([]);
    expect(computeExtraBonuses({ window, merchants: deals, specs: [extra({ enabled: false })] })).toEqual([]);
  });
});

describe('clawbacks', () => {
  const rule = (over: Partial<ClawbackRule>): ClawbackRule => ({
    id: 1,
    iso: null,
    groupIds: [],
    closureDays: 90,
    volumeDays: 60,
    volumeThreshold: $('1000'),
    nonProcessing: true,
    monthlyVolumeThreshold: money(0),
    ...over,
  });
  const runDate = '2024-06-20';
  const bonused = (m: MerchantFacts, over: { doNotPay?: boolean; amount?: string } = {}) => ({
    merchant: m,
    bonusDate: '2024-04-21',
    amount: $(over.amount ?? '150'),
    doNotPay: over.doNotPay ?? false,
  });
  const v = (day: string, amount: string) => ({ day, volume: $(amount) });

  it('closure within the closure days claws back, flagged CBY', () => {
    // opened 03-01, closed 05-20: 80 days <= 90.
    const rows = computeClawbacks({
      runDate,
      bonused: [
        bonused(
          merchant({
            mid: 'K',
            openedOn: '2024-03-01',
            closedOn: '2024-05-20',
            volumes: [v('2024-03-02', '5000')],
          }),
        ),
      ],
      rules: [rule({})],
      alreadyClawedBack: new Set(),
    });
    expect(rows.map((r) => [r.mid, r.reason, r.flag, r.amount])).toEqual([
      ['K', 'closure', 'CBY', money(15000)],
    ]);
  });
  it('volume below the threshold within the volume days claws back; an open merchant is CBN', () => {
    // opened 03-01, 60 days end 04-29: 400 + 500 = 900 < 1000 (the 05-01 deposit is too late).
    const m = merchant({
      mid: 'L',
      openedOn: '2024-03-01',
      volumes: [v('2024-03-10', '400'), v('2024-04-29', '500'), v('2024-05-01', '800')],
    });
    const rows = computeClawbacks({
      runDate,
      bonused: [bonused(m)],
      rules: [rule({})],
      alreadyClawedBack: new Set(),
    });
    expect(
      rows.map((r) => [r.reason, r.flag, r.volumeThresholdDate, r.totalVolume, r.lastDepositDate]),
    ).toEqual([['volume', 'CBN', '2024-04-29', money(170000), '2024-05-01']]);
  });
  it('non-processing: no volume from opening to the run, 30 days after opening', () => {
    const rules = [rule({ closureDays: 0, volumeDays: 0 })];
    const rows = computeClawbacks({
      runDate,
      bonused: [
        bonused(merchant({ mid: 'N', openedOn: '2024-05-01' })),
        bonused(merchant({ mid: 'O', openedOn: '2024-05-22' })),
      ],
      rules,
      alreadyClawedBack: new Set(),
    });
    // N: 50 days without volume; O: 29 days, too early.
    expect(rows.map((r) => [r.mid, r.reason])).toEqual([['N', 'non_processing']]);
    expect(
      computeClawbacks({
        runDate,
        bonused: [bonused(merchant({ mid: 'N', openedOn: '2024-05-01' }))],
        rules: [rule({ closureDays: 0, volumeDays: 0, nonProcessing: false })],
        alreadyClawedBack: new Set(),
      }),
    ).toEqual([]);
  });
  it('monthly volume threshold: the last full month below it', () => {
    const rules = [rule({ closureDays: 0, volumeDays: 0, monthlyVolumeThreshold: $('500') })];
    // May 2024: 300 + 150 = 450 < 500.
    const m = merchant({
      mid: 'Q',
      openedOn: '2024-03-01',
      volumes: [v('2024-04-10', '2000'), v('2024-05-03', '300'), v('2024-05-30', '150')],
    });
    expect(
      computeClawbacks({ runDate, bonused: [bonused(m)], rules, alreadyClawedBack: new Set() }).map(
        (r) => r.reasonText,
      ),
    ).toEqual(['Volume $450.00 in 2024-05, below $500.00']);
  });
  it('a named rule listing the group replaces the default; do-not-pay claws back 0; once clawed back, never again', () => {
    const m = merchant({ mid: 'R', groupId: 'G3', openedOn: '2024-03-01', closedOn: '2024-05-20' });
    const named = rule({
      id: 2,
      iso: 'Summit',
      groupIds: ['G3'],
      closureDays: 30,
      volumeDays: 0,
      nonProcessing: false,
    });
    expect(
      computeClawbacks({
        runDate,
        bonused: [bonused(m)],
        rules: [rule({}), named],
        alreadyClawedBack: new Set(),
      }),
    ).toEqual([]);
    const rows = computeClawbacks({
      runDate,
      bonused: [bonused(m, { doNotPay: true })],
      rules: [rule({})],
      alreadyClawedBack: new Set(),
    });
    expect(rows.map((r) => r.amount)).toEqual([money(0)]);
    expect(
      computeClawbacks({
        runDate,
        bonused: [bonused(m)],
        rules: [rule({})],
        alreadyClawedBack: new Set(['R']),
      }),
    ).toEqual([]);
  });
});

describe('matches', () => {
  it('same address, city, state and zip of an earlier bonused merchant, ignoring case and punctuation', () => {
    const key = addressKey({ address: '1 Main St.', city: 'Austin', state: 'TX', zip: '78701-1234' });
    expect(key).toBe(addressKey({ address: '1  MAIN st', city: 'austin', state: 'tx', zip: '78701' }));
    const earlier = [
      { mid: 'OLD', addressKey: key, bonusDate: '2023-01-21', clawedBack: true },
      { mid: 'LATER', addressKey: key, bonusDate: '2024-05-21', clawedBack: false },
      {
        mid: 'ELSE',
        addressKey: addressKey({ address: '2 Main St', city: 'Austin', state: 'TX', zip: '78701' }),
        bonusDate: '2023-01-21',
        clawedBack: false,
      },
    ];
    expect(
      findMatches({ mid: 'NEW', addressKey: key, bonusDate: '2024-03-21', clawedBack: false }, earlier).map(
        (m) => m.mid,
      ),
    ).toEqual(['OLD']);
    expect(
      findMatches({ mid: 'NEW', addressKey: null, bonusDate: '2024-03-21', clawedBack: false }, earlier),
    ).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  achKeys,
  adminKeys,
  bonusKeys,
  financialKeys,
  jobKeys,
  leadsKeys,
  partnerKeys,
  pciKeys,
  processingKeys,
  reportKeys,
  salesKeys,
  uploadKeys,
} from './queryKeys';

const body = { month: '2026-10' };
const areas = {
  sales: [salesKeys, [salesKeys.call('/api/x', body), salesKeys.isoTable(body), salesKeys.isoPreview(body)]],
  financial: [
    financialKeys,
    [
      financialKeys.options(),
      financialKeys.average({ filters: {}, start: '2026-01', end: '2026-10' }),
      financialKeys.data({ filters: {}, start: '2026-01' }),
    ],
  ],
  admin: [
    adminKeys,
    [
      adminKeys.users(),
      adminKeys.isos(),
      adminKeys.audit(),
      adminKeys.auditTable(body),
      adminKeys.auditPreview(body),
      adminKeys.outbox(),
      adminKeys.outboxTable(body),
      adminKeys.outboxPreview(body),
      adminKeys.outboxMessage(1),
    ],
  ],
  reports: [
    reportKeys,
    [
      reportKeys.table('selfserve'),
      reportKeys.page('selfserve', body),
      reportKeys.preview('selfserve', body),
    ],
  ],
  uploads: [
    uploadKeys,
    [uploadKeys.type('ach'), uploadKeys.rows('ach', null), uploadKeys.preview('ach', null)],
  ],
  jobs: [jobKeys, [jobKeys.table(body), jobKeys.preview(body), jobKeys.status('4d761842')]],
  partners: [
    partnerKeys,
    [
      partnerKeys.directory(''),
      partnerKeys.exportPreview(),
      partnerKeys.table(body),
      partnerKeys.tablePreview(body),
      partnerKeys.account('001A'),
      partnerKeys.revShareHistory('40001'),
      partnerKeys.lastGroupIds(),
      partnerKeys.importStatus('4d761842'),
    ],
  ],
  processing: [
    processingKeys,
    [
      processingKeys.info({ dt: '2026-11-22', historic: false }),
      processingKeys.activation('2026-11-22'),
      processingKeys.budgets(2026),
      processingKeys.subscriptions(),
    ],
  ],
  ach: [
    achKeys,
    [
      achKeys.pages(),
      achKeys.page(body),
      achKeys.preview(body),
      achKeys.history('0-17'),
      achKeys.returnRates('merchant'),
      achKeys.savedNames(),
    ],
  ],
  bonus: [
    bonusKeys,
    [
      bonusKeys.rows(),
      bonusKeys.bonuses('W', '2026-11-19'),
      bonusKeys.extra('2026-10-01'),
      bonusKeys.clawbacks('2026-11-20'),
      bonusKeys.matches(['7410001']),
      bonusKeys.activation(),
      bonusKeys.specs(),
      bonusKeys.spec('include', { profile: 'PL', period: 'W' }),
      bonusKeys.isoList(),
      bonusKeys.windows(),
      bonusKeys.equipmentList(),
      bonusKeys.logs(),
    ],
  ],
  leads: [
    leadsKeys,
    [
      leadsKeys.list(),
      leadsKeys.approvals(),
      leadsKeys.underwriters(),
      leadsKeys.lead('00Q5e00000ABCDE'),
      leadsKeys.form('00Q5e00000ABCDE'),
      leadsKeys.step('00Q5e00000ABCDE'),
      leadsKeys.checks('00Q5e00000ABCDE'),
      leadsKeys.approval('00Q5e00000ABCDE'),
      leadsKeys.link('tok'),
    ],
  ],
  pci: [
    pciKeys,
    [
      pciKeys.tables(),
      pciKeys.table('billing'),
      pciKeys.page('billing', body),
      pciKeys.preview('billing', body),
      pciKeys.billingRun(2026, 10),
      pciKeys.partners(),
      pciKeys.config(),
      pciKeys.configList('fees'),
      pciKeys.filterSource(1),
    ],
  ],
} as const;

const startsWith = (key: readonly unknown[], prefix: readonly unknown[]) =>
  prefix.every((part, i) => key[i] === part);

describe('query key factories', () => {
  it.each(Object.entries(areas))(
    'every %s key lies under its area, so invalidating `all` reaches it',
    (_, [factory, keys]) => {
      for (const key of keys) expect(startsWith(key, factory.all), JSON.stringify(key)).toBe(true);
    },
  );

  it('no key of one area lies under another area (an invalidation stays in its area)', () => {
    for (const [name, [factory]] of Object.entries(areas)) {
      for (const [other, [, keys]] of Object.entries(areas)) {
        if (other === name) continue;
        for (const key of keys)
          expect(startsWith(key, factory.all), `${name} ⊃ ${JSON.stringify(key)}`).toBe(false);
      }
    }
  });

  it('keeps a mark’s invalidation of the rows away from the specifications and the log', () => {
    for (const key of [bonusKeys.specs(), bonusKeys.logs(), bonusKeys.windows()])
      expect(startsWith(key, bonusKeys.rows())).toBe(false);
    expect(startsWith(bonusKeys.clawbacks('2026-11-20'), bonusKeys.rows())).toBe(true);
  });

  it('keeps one lead’s invalidation away from the others and from the lists', () => {
    for (const key of [leadsKeys.list(), leadsKeys.approvals(), leadsKeys.step('B')])
      expect(startsWith(key, leadsKeys.lead('A'))).toBe(false);
    expect(startsWith(leadsKeys.checks('A'), leadsKeys.lead('A'))).toBe(true);
  });

  it('keeps different bodies apart and equal bodies together', () => {
    expect(reportKeys.page('selfserve', body)).toEqual(reportKeys.page('selfserve', { month: '2026-10' }));
    expect(reportKeys.page('selfserve', body)).not.toEqual(
      reportKeys.page('selfserve', { month: '2026-09' }),
    );
    expect(reportKeys.page('selfserve', body)).not.toEqual(reportKeys.page('residualselfserve', body));
  });
});

import { type Capability, DEPARTMENTS, type Department, type Principal } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import { MENU, type MenuEntry, visibleMenu } from './menu';

const principal = (department: Department, capabilities: Capability[] = []): Principal => ({
  department,
  capabilities,
});

const labels = (entries: readonly Pick<MenuEntry, 'label'>[]) => entries.map((entry) => entry.label);

describe('visibleMenu', () => {
  it('shows an admin every entry, in menu order', () => {
    expect(labels(visibleMenu(principal('admin'), MENU))).toEqual([
      'Sales',
      'Financial',
      'Sales Calculator',
      'ISO Performance',
      'Leaderboard',
      'Self Serve',
      'Residual Self Serve',
      'Upload Data',
      'Change Password',
      'Register',
      'Users',
      'Audit log',
      'Outbox',
    ]);
  });

  it.each(['sales_admin', 'finance_admin'] as const)('shows %s the reports and Upload Data', (department) => {
    expect(labels(visibleMenu(principal(department), MENU))).toEqual([
      'Sales',
      'Financial',
      'Sales Calculator',
      'ISO Performance',
      'Leaderboard',
      'Self Serve',
      'Residual Self Serve',
      'Upload Data',
      'Change Password',
    ]);
  });

  it.each(['sales', 'finance'] as const)(
    'shows %s only the entries open to every signed-in user',
    (department) => {
      expect(labels(visibleMenu(principal(department), MENU))).toEqual([
        'Sales',
        'Financial',
        'Sales Calculator',
        'ISO Performance',
        'Leaderboard',
        'Self Serve',
        'Residual Self Serve',
        'Change Password',
      ]);
    },
  );

  it('does not let a capability stand in for the admin department', () => {
    const everything = principal('sales', ['bi', 'leads', 'partners_edit', 'ach_edit']);
    expect(labels(visibleMenu(everything, MENU))).toEqual([
      'Sales',
      'Financial',
      'Sales Calculator',
      'ISO Performance',
      'Leaderboard',
      'Self Serve',
      'Residual Self Serve',
      'Change Password',
    ]);
  });

  describe('an entry gated by a capability', () => {
    const entries = [
      { label: 'Sales', path: '/sales' },
      { label: 'Business Intelligence', path: '/bi', permission: 'bi' as const },
    ];

    it.each(DEPARTMENTS)('is hidden from a %s user without the capability', (department) => {
      expect(labels(visibleMenu(principal(department), entries))).toEqual(['Sales']);
    });

    it.each(DEPARTMENTS)('is shown to a %s user holding the capability', (department) => {
      expect(labels(visibleMenu(principal(department, ['bi']), entries))).toEqual([
        'Sales',
        'Business Intelligence',
      ]);
    });

    it('is not shown for a different capability', () => {
      expect(labels(visibleMenu(principal('admin', ['leads']), entries))).toEqual(['Sales']);
    });
  });
});

import { type Capability, DEPARTMENTS, type Department, type Principal } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import { MENU, type MenuEntry, menuOf, visibleMenu } from './menu';
import { MENU_ICONS } from './menuIcons';
import { SCREENS, type Screen } from './screens';

const principal = (department: Department, capabilities: Capability[] = []): Principal => ({
  department,
  capabilities,
});

const labels = (entries: readonly Pick<MenuEntry, 'label'>[]) => entries.map((entry) => entry.label);

describe('the menu derived from SCREENS', () => {
  it('lists the screens with a menu entry, in menu order, with their paths and permissions', () => {
    expect(MENU.map(({ label, path, permission }) => ({ label, path, permission }))).toEqual([
      { label: 'Sales', path: '/sales', permission: undefined },
      { label: 'Financial', path: '/financial', permission: undefined },
      { label: 'Processing', path: '/processing', permission: undefined },
      { label: 'How to Export', path: '/export', permission: undefined },
      { label: 'Sales Calculator', path: '/salescalculator', permission: undefined },
      { label: 'ISO Performance', path: '/isoperformance', permission: undefined },
      { label: 'ISO Analytics', path: '/isoanalytics', permission: undefined },
      { label: 'Business Intelligence', path: '/bi', permission: 'bi' },
      { label: 'Leaderboard', path: '/leaderboard', permission: undefined },
      { label: 'Self Serve', path: '/selfserve', permission: undefined },
      { label: 'Residual Self Serve', path: '/residualselfserve', permission: undefined },
      { label: 'ACH Returns', path: '/ach', permission: undefined },
      { label: 'Partners', path: '/partner', permission: undefined },
      { label: 'PCI Compliance', path: '/pci', permission: undefined },
      { label: 'Bonus & Clawback', path: '/bonus', permission: undefined },
      { label: 'Leads', path: '/leads', permission: 'leads' },
      { label: 'Upload Data', path: '/uploadfiles', permission: 'upload_data' },
      { label: 'Change Password', path: '/changePassword', permission: undefined },
      { label: 'Register', path: '/register', permission: 'manage_users' },
      { label: 'Users', path: '/users', permission: 'manage_users' },
      { label: 'Audit log', path: '/audit', permission: 'manage_users' },
      { label: 'Outbox', path: '/outbox', permission: 'read_outbox' },
      { label: 'Jobs', path: '/jobs', permission: 'manage_jobs' },
    ]);
  });

  it("carries each screen's icon and leaves out the screens without a menu entry", () => {
    for (const entry of MENU) {
      const name = SCREENS.find((screen) => screen.path === entry.path)?.menu?.icon;
      expect(name && entry.icon).toBe(name && MENU_ICONS[name]);
      expect(entry.icon).toBeTypeOf('object');
    }
    // No two entries share an icon.
    expect(new Set(MENU.map((entry) => entry.icon)).size).toBe(MENU.length);
    expect(MENU.map((entry) => entry.path)).not.toContain('/login');
    expect(MENU.map((entry) => entry.path)).not.toContain('*');
  });

  it('orders by the menu order, not by the registry order', () => {
    const screen = (path: string, order: number): Screen => ({
      path,
      access: 'protected',
      menu: { label: path, icon: 'ChartBar', order },
      component: SCREENS[0]?.component as Screen['component'],
    });
    expect(menuOf([screen('/b', 2), screen('/a', 1), screen('/c', 3)]).map((e) => e.path)).toEqual([
      '/a',
      '/b',
      '/c',
    ]);
  });
});

describe('visibleMenu', () => {
  it('shows an admin every entry, in menu order', () => {
    expect(labels(visibleMenu(principal('admin'), MENU))).toEqual([
      'Sales',
      'Financial',
      'Processing',
      'How to Export',
      'Sales Calculator',
      'ISO Performance',
      'ISO Analytics',
      'Leaderboard',
      'Self Serve',
      'Residual Self Serve',
      'ACH Returns',
      'Partners',
      'PCI Compliance',
      'Bonus & Clawback',
      'Upload Data',
      'Change Password',
      'Register',
      'Users',
      'Audit log',
      'Outbox',
      'Jobs',
    ]);
  });

  it.each(['sales_admin', 'finance_admin'] as const)('shows %s the reports and Upload Data', (department) => {
    expect(labels(visibleMenu(principal(department), MENU))).toEqual([
      'Sales',
      'Financial',
      'Processing',
      'How to Export',
      'Sales Calculator',
      'ISO Performance',
      'ISO Analytics',
      'Leaderboard',
      'Self Serve',
      'Residual Self Serve',
      'ACH Returns',
      'Partners',
      'PCI Compliance',
      'Bonus & Clawback',
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
        'Processing',
        'How to Export',
        'Sales Calculator',
        'ISO Performance',
        'ISO Analytics',
        'Leaderboard',
        'Self Serve',
        'Residual Self Serve',
        'ACH Returns',
        'Partners',
        'PCI Compliance',
        'Bonus & Clawback',
        'Change Password',
      ]);
    },
  );

  it('does not let a capability stand in for the admin department', () => {
    const everything = principal('sales', ['bi', 'leads', 'partners_edit', 'ach_edit']);
    expect(labels(visibleMenu(everything, MENU))).toEqual([
      'Sales',
      'Financial',
      'Processing',
      'How to Export',
      'Sales Calculator',
      'ISO Performance',
      'ISO Analytics',
      'Business Intelligence',
      'Leaderboard',
      'Self Serve',
      'Residual Self Serve',
      'ACH Returns',
      'Partners',
      'PCI Compliance',
      'Bonus & Clawback',
      'Leads',
      'Change Password',
    ]);
  });

  it('shows Leads to a holder of the Leads capability only, after Bonus & Clawback', () => {
    expect(labels(visibleMenu(principal('admin'), MENU))).not.toContain('Leads');
    expect(labels(visibleMenu(principal('sales', ['underwriter']), MENU))).not.toContain('Leads');
    const rm = labels(visibleMenu(principal('sales', ['leads']), MENU));
    expect(rm.indexOf('Leads')).toBe(rm.indexOf('Bonus & Clawback') + 1);
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

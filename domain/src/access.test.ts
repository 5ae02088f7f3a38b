import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  DEPARTMENT_DESCRIPTIONS,
  DEPARTMENTS,
  type Department,
  hasPermission,
  type Principal,
} from './access';

const user = (department: Department, capabilities: Principal['capabilities'] = []): Principal => ({
  department,
  capabilities,
});

describe('hasPermission', () => {
  it('department rules follow the spec', () => {
    const who = (rule: Parameters<typeof hasPermission>[1]) =>
      DEPARTMENTS.filter((d) => hasPermission(user(d), rule));
    expect(who('manage_users')).toEqual(['admin']);
    expect(who('read_outbox')).toEqual(['admin']);
    expect(who('import_reports')).toEqual(['admin', 'sales_admin']);
    expect(who('upload_data')).toEqual(['admin', 'sales_admin', 'finance_admin']);
  });

  it('capabilities are granted per user, whatever the department', () => {
    for (const cap of CAPABILITIES) {
      expect(hasPermission(user('admin'), cap)).toBe(false);
      expect(hasPermission(user('finance', [cap]), cap)).toBe(true);
    }
    expect(hasPermission(user('sales', ['bi']), 'leads')).toBe(false);
  });
});

describe('department descriptions', () => {
  it('say which departments import and use Upload Data, as the rules decide', () => {
    for (const department of DEPARTMENTS) {
      const user = { department, capabilities: [] };
      const text = DEPARTMENT_DESCRIPTIONS[department];
      const deniesBoth = text.includes('no imports or Upload Data');
      expect(text.includes('Upload Data') && !deniesBoth, department).toBe(
        hasPermission(user, 'upload_data'),
      );
      expect(/\bimport/.test(text) && !deniesBoth, department).toBe(hasPermission(user, 'import_reports'));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, describeAudit } from './audit';

const entry = (
  action: string,
  details: Record<string, unknown> = {},
  subject: string | null = 'x@y.example',
) => ({
  action,
  subject,
  details,
});

describe('describeAudit', () => {
  it('names every action the server writes', () => {
    for (const action of AUDIT_ACTIONS) {
      expect(AUDIT_ACTION_LABELS[action]).toBeTruthy();
      expect(describeAudit(entry(action))).not.toContain(action);
    }
  });

  it('words sign-ins, refusals and resets', () => {
    expect(describeAudit(entry('signin.success', { session: 'abc' }))).toBe('Signed in');
    expect(describeAudit(entry('signin.failure', { reason: 'wrong password' }))).toBe(
      'Sign-in as x@y.example refused: wrong password',
    );
    expect(describeAudit(entry('signin.failure', { reason: 'unknown email' }))).toBe(
      'Sign-in as x@y.example refused: no such account',
    );
    expect(describeAudit(entry('signin.locked'))).toBe(
      'Locked x@y.example for 30 minutes after too many wrong passwords',
    );
    expect(describeAudit(entry('password.reset_request', { unknown: true }))).toMatch(/has no account/);
    expect(describeAudit(entry('user.register', { department: 'finance_admin' }))).toBe(
      'Registered x@y.example in Finance admin',
    );
  });

  it('words each change of a user, in one sentence', () => {
    expect(describeAudit(entry('user.update', { department: ['sales', 'finance'] }))).toBe(
      'Changed the department of x@y.example from Sales to Finance',
    );
    expect(
      describeAudit(
        entry('user.update', {
          capabilities: [['leads'], ['bi']],
          active: [true, false],
          locked: [true, false],
          isoName: [null, 'Summit Payment Group'],
        }),
      ),
    ).toBe(
      'Gave x@y.example Business Intelligence; took Leads away from x@y.example; deactivated x@y.example; unlocked x@y.example; bound x@y.example to the ISO Summit Payment Group',
    );
    expect(describeAudit(entry('user.update', { isoName: ['A', 'B'] }))).toBe(
      'Moved x@y.example from the ISO A to B',
    );
    expect(describeAudit(entry('user.update', {}))).toBe('Saved x@y.example without changes');
  });

  it('words a reveal of a sensitive field by field and owner, never a value', () => {
    expect(describeAudit(entry('pii.reveal', { field: 'SSN', capability: 'leads' }, 'lead 42'))).toBe(
      'Showed SSN of lead 42 in clear',
    );
    expect(describeAudit(entry('pii.reveal', {}, null))).toBe(
      'Showed a sensitive field of an unknown account in clear',
    );
  });

  it('shows an action it does not know as it was stored', () => {
    expect(describeAudit(entry('report.delete', { name: 'Q1' }))).toBe(
      'report.delete (x@y.example) {"name":"Q1"}',
    );
  });
});

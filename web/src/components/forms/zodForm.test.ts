import { changePasswordBody, registerBody } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import { fieldErrors, shownErrors } from './zodForm';

describe('form messages from the domain schema', () => {
  const filled = {
    email: 'a@paydesk.local',
    oldpassword: 'x',
    password: 'New-2026!',
    confirmpassword: 'New-2026!',
  };

  it('gives no messages for values the server would accept', () => {
    expect(fieldErrors(changePasswordBody, filled)).toEqual({});
  });

  it('names the field of each problem with the server’s own message, the mismatch under Confirm', () => {
    expect(fieldErrors(changePasswordBody, { ...filled, oldpassword: '', confirmpassword: 'other' })).toEqual(
      {
        oldpassword: 'Current password is required',
        confirmpassword: 'New password and confirm password do not match',
      },
    );
    expect(
      fieldErrors(registerBody, {
        email: 'not-an-email',
        department: null,
        password: 'p',
        confirmpassword: 'p',
      }),
    ).toEqual({ email: 'Enter a valid e-mail address', department: expect.stringContaining('Department') });
  });

  it('shows a message only for a field the user has left', () => {
    const errors = fieldErrors(changePasswordBody, { ...filled, oldpassword: '', password: '' });
    expect(Object.keys(shownErrors(errors, new Set(['password'])))).toEqual(['password']);
    expect(shownErrors(errors, new Set())).toEqual({});
  });
});

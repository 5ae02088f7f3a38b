import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password';

describe('passwordProblem', () => {
  it('accepts a password with all four kinds of character and 8 or more characters', () => {
    expect(passwordProblem('Abcdef1!')).toBeNull();
    expect(passwordProblem('Correct-Horse-9')).toBeNull();
  });
  it('names the length first', () => {
    expect(passwordProblem('Ab1!')).toBe('Password length must be 8 characters or more');
    expect(passwordProblem('')).toBe('Password length must be 8 characters or more');
  });
  it('names every missing kind', () => {
    expect(passwordProblem('abcdefgh')).toBe(
      'Password must contain an uppercase letter, a number and a special character',
    );
    expect(passwordProblem('ABCDEFG1')).toBe(
      'Password must contain a lowercase letter and a special character',
    );
    expect(passwordProblem('Abcdefg!')).toBe('Password must contain a number');
    expect(passwordProblem('Abcdefg1')).toBe('Password must contain a special character');
    expect(passwordProblem('12345678!')).toBe(
      'Password must contain an uppercase letter and a lowercase letter',
    );
  });
  it('refuses absurdly long passwords', () => {
    expect(passwordProblem(`Aa1!${'x'.repeat(200)}`)).toMatch(/at most 128/);
  });
});

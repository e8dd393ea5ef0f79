import { describe, expect, it } from 'vitest';
import { canSubmitPasswordChange, passwordChangeError } from '../src/index.ts';

const change = (currentPassword: string, newPassword: string, confirmPassword = newPassword) => ({
  currentPassword,
  newPassword,
  confirmPassword,
});

describe('canSubmitPasswordChange', () => {
  it('needs the two to match and at least 6 characters', () => {
    expect(canSubmitPasswordChange(change('old', 'abcdef'))).toBe(true);
    expect(canSubmitPasswordChange(change('old', 'abcde'))).toBe(false);
    expect(canSubmitPasswordChange(change('old', 'abcdef', 'abcdeg'))).toBe(false);
  });
});

describe('passwordChangeError', () => {
  it('reports a mismatch first', () => {
    expect(passwordChangeError(change('Same1234', 'Same1234', 'Other123'))).toBe('Passwords do not match');
  });

  it('refuses the current password', () => {
    expect(passwordChangeError(change('Same1234', 'Same1234'))).toBe(
      'New password must be different from current password',
    );
  });

  it('fails the strength check only when both the length and the class tests fail', () => {
    expect(passwordChangeError(change('old', 'abc'))).toBe(
      'New password must be at least 8 characters long and include uppercase, lowercase letters, and numbers',
    );
    // Long enough but one class only: accepted by this (deliberately weak) check.
    expect(passwordChangeError(change('old', 'abcdefgh'))).toBeNull();
    // Short but with every class: accepted too.
    expect(passwordChangeError(change('old', 'aB3'))).toBeNull();
    expect(passwordChangeError(change('old', 'Passw0rd'))).toBeNull();
  });
});

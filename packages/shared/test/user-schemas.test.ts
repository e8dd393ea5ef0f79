import { describe, expect, it } from 'vitest';
import { loginSchema, signupSchema, VALIDATION } from '../src/index.ts';

/** The first message per field, as a form shows it. */
function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const byField: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0]);
    byField[field] ??= issue.message;
  }
  return byField;
}

const valid = {
  fullName: 'Ada Lovelace',
  username: 'ada_l',
  email: 'ada@example.com',
  password: 'Passw0rdOK',
  cnfPassword: 'Passw0rdOK',
};

describe('sign-up schema', () => {
  it('accepts a valid sign-up', () => {
    expect(signupSchema.safeParse(valid).success).toBe(true);
  });

  it('gives every "required" message for an empty form', () => {
    const empty = { fullName: '', username: '', email: '', password: '', cnfPassword: '' };
    expect(messages(signupSchema.safeParse(empty))).toEqual({
      fullName: 'Full Name is required',
      username: 'Username is required',
      email: 'Email is required',
      password: 'Password is required',
      cnfPassword: 'Confirm your password',
    });
  });

  it('treats missing fields and blank names as required', () => {
    expect(messages(signupSchema.safeParse({}))).toEqual({
      fullName: VALIDATION.fullNameRequired,
      username: VALIDATION.usernameRequired,
      email: VALIDATION.emailRequired,
      password: VALIDATION.passwordRequired,
      cnfPassword: VALIDATION.confirmRequired,
    });
    expect(messages(signupSchema.safeParse({ ...valid, fullName: '   ' }))).toEqual({
      fullName: 'Full Name is required',
    });
  });

  it.each(['plainaddress', 'a@b', 'a b@example.com', '@example.com', 'ada@example.'])(
    'rejects the email %s',
    (email) => {
      expect(messages(signupSchema.safeParse({ ...valid, email }))).toEqual({
        email: 'Enter a valid email address',
      });
    },
  );

  it.each([
    ['too short', 'Pa55wor'],
    ['no digit', 'Passwords'],
    ['no lowercase', 'PASSW0RDS'],
    ['no uppercase', 'passw0rds'],
  ])('rejects a weak password (%s)', (_why, password) => {
    expect(messages(signupSchema.safeParse({ ...valid, password, cnfPassword: password }))).toEqual({
      password: 'Password must contain at least 8 characters, a number, uppercase & lowercase letter',
    });
  });

  it('accepts exactly 8 characters with all classes', () => {
    expect(signupSchema.safeParse({ ...valid, password: 'Abcdef1g', cnfPassword: 'Abcdef1g' }).success).toBe(
      true,
    );
  });

  it('reports a mismatch on the confirmation, together with the other fields', () => {
    expect(messages(signupSchema.safeParse({ ...valid, cnfPassword: 'Passw0rdKO' }))).toEqual({
      cnfPassword: 'Passwords do not match',
    });
    expect(messages(signupSchema.safeParse({ ...valid, email: '', cnfPassword: 'other' }))).toEqual({
      email: 'Email is required',
      cnfPassword: 'Passwords do not match',
    });
  });
});

describe('login schema', () => {
  it('requires the username and the password', () => {
    expect(messages(loginSchema.safeParse({ username: '', password: '' }))).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
    expect(messages(loginSchema.safeParse({}))).toEqual({
      username: 'Username is required',
      password: 'Password is required',
    });
  });

  it('has no further rule: an email and a one-character password pass', () => {
    expect(loginSchema.safeParse({ username: 'ada@example.com', password: 'x' }).success).toBe(true);
  });
});

describe('names and addresses shown to other people', () => {
  it('refuses control and text-direction characters in a name, and keeps joiners scripts need', () => {
    for (const fullName of ['Ada\u202Eecalevol', 'Ada\u2066x', 'Ada\u0007', 'Ada\u200FLovelace']) {
      expect(messages(signupSchema.safeParse({ ...valid, fullName })).fullName, fullName).toBe(
        'Full Name must not contain control or text-direction characters',
      );
    }
    for (const fullName of ['Zoë Ñúñez', 'क्‍ष', 'Family 👨‍👩‍👧', 'Анна']) {
      expect(signupSchema.safeParse({ ...valid, fullName }).success, fullName).toBe(true);
    }
  });

  it('accepts what a browser accepts as an e-mail address, and no markup', () => {
    for (const email of [
      '<svg/onload=alert(1)>@x.io',
      'a"b@x.io',
      'a b@x.io',
      'ada@x',
      'ada@-x.io',
      '(a)@x.io',
    ]) {
      expect(messages(signupSchema.safeParse({ ...valid, email })).email, email).toBe(
        VALIDATION.emailInvalid,
      );
    }
    for (const email of ['ada@example.com', "o'brien+care@mail.example.co.uk", 'A.B-c_d@sub.domain.org']) {
      expect(signupSchema.safeParse({ ...valid, email }).success, email).toBe(true);
    }
  });
});

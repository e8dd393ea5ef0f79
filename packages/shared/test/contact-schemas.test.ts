import { describe, expect, it } from 'vitest';
import { contactSchema, demoRequestSchema } from '../src/index.ts';

/** The first message per field, as a form shows it. */
function fieldMessages(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const byField: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) byField[String(issue.path[0])] ??= issue.message;
  return byField;
}

describe('contact and demo request forms', () => {
  it('require every field', () => {
    expect(fieldMessages(contactSchema.safeParse({ name: '', email: '', message: ' ' }))).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      message: 'Message is required',
    });
    expect(fieldMessages(demoRequestSchema.safeParse({}))).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      organisation: 'Organisation is required',
      message: 'Message is required',
    });
  });

  it('check the email address and accept a complete form', () => {
    const form = { name: 'Ada', email: 'ada@', organisation: 'Clinic', message: 'Hello' };
    expect(fieldMessages(demoRequestSchema.safeParse(form))).toEqual({
      email: 'Enter a valid email address',
    });
    expect(demoRequestSchema.safeParse({ ...form, email: 'ada@example.com' }).success).toBe(true);
    expect(contactSchema.safeParse({ name: 'Ada', email: 'ada@example.com', message: 'Hi' }).success).toBe(
      true,
    );
  });
});

import { z } from 'zod';
import { emailField, PLAIN_TEXT_PATTERN, plainTextMessage } from './user.ts';

/** Messages of the landing contact form and the demo request form (marketing forms, not in the spec's catalogue). */
export const CONTACT_MESSAGES = {
  nameRequired: 'Name is required',
  organisationRequired: 'Organisation is required',
  messageRequired: 'Message is required',
  messageTooLong: 'Message must be at most 2000 characters',
} as const;

const nameField = z
  .string({ error: CONTACT_MESSAGES.nameRequired })
  .trim()
  .min(1, CONTACT_MESSAGES.nameRequired)
  .max(100, 'Name is too long')
  .regex(PLAIN_TEXT_PATTERN, plainTextMessage('Name'));
const messageField = z
  .string({ error: CONTACT_MESSAGES.messageRequired })
  .trim()
  .min(1, CONTACT_MESSAGES.messageRequired)
  .max(2000, CONTACT_MESSAGES.messageTooLong);

/** Landing page 'Get in Touch' form. */
export const contactSchema = z.object({ name: nameField, email: emailField, message: messageField });
export type ContactInput = z.infer<typeof contactSchema>;

/** '/demo' request form. */
export const demoRequestSchema = z.object({
  name: nameField,
  email: emailField,
  organisation: z
    .string({ error: CONTACT_MESSAGES.organisationRequired })
    .trim()
    .min(1, CONTACT_MESSAGES.organisationRequired)
    .max(200, 'Organisation is too long'),
  message: messageField,
});
export type DemoRequestInput = z.infer<typeof demoRequestSchema>;

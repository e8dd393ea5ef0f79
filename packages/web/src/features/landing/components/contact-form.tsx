import { zodResolver } from '@hookform/resolvers/zod';
import { type ContactInput, contactSchema } from '@vitalwatch/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/button.tsx';
import { TextAreaField, TextField } from '@/components/form-field.tsx';
import { SuccessPanel } from '@/components/success-panel.tsx';
import { CONTACT_EMAIL } from '@/lib/contact-details.ts';

const EMPTY: ContactInput = { name: '', email: '', message: '' };

/** Validated on submit; it is not wired to any inbox, and the confirmation says so. */
export function ContactForm() {
  const [sentBy, setSentBy] = useState<ContactInput | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(contactSchema), defaultValues: EMPTY });

  if (sentBy) {
    return (
      <SuccessPanel
        title={`Thank you, ${sentBy.name}!`}
        action={
          <Button
            variant="secondary"
            onClick={() => {
              reset(EMPTY);
              setSentBy(null);
            }}
          >
            Write another message
          </Button>
        }
      >
        <p>Your message is filled in correctly.</p>
        <p className="mt-1">
          This page does not send messages yet, so nothing has left your browser. Please email it to{' '}
          <a className="font-semibold underline" href={`mailto:${CONTACT_EMAIL}`}>
            {CONTACT_EMAIL}
          </a>{' '}
          or call us during office hours; we will reply to {sentBy.email} within one business day.
        </p>
      </SuccessPanel>
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit(setSentBy)} className="space-y-4" aria-label="Contact form">
      <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextAreaField label="Message" rows={5} error={errors.message?.message} {...register('message')} />
      <Button type="submit" size="lg" className="w-full sm:w-auto">
        Send Message
      </Button>
    </form>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { type DemoRequestInput, demoRequestSchema } from '@vitalwatch/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/button.tsx';
import { TextAreaField, TextField } from '@/components/form-field.tsx';
import { SuccessPanel } from '@/components/success-panel.tsx';
import { CONTACT_EMAIL } from '@/lib/contact-details.ts';
import { PATHS } from '@/lib/paths.ts';

const EMPTY: DemoRequestInput = { name: '', email: '', organisation: '', message: '' };

/** Validated on submit; booking is not wired up, and the confirmation tells the visitor what to do. */
export function DemoForm() {
  const [request, setRequest] = useState<DemoRequestInput | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(demoRequestSchema), defaultValues: EMPTY });

  if (request) {
    return (
      <SuccessPanel
        title="Demo request ready"
        action={
          <Link to={PATHS.home} className={buttonClasses('secondary')}>
            Back to home
          </Link>
        }
      >
        <p>
          Thank you, {request.name}. Your request for {request.organisation} is complete.
        </p>
        <p className="mt-1">
          Online booking is not connected yet, so nothing has been sent. Email{' '}
          <a className="font-semibold underline" href={`mailto:${CONTACT_EMAIL}?subject=Demo%20request`}>
            {CONTACT_EMAIL}
          </a>{' '}
          and we will arrange a 30-minute walkthrough and reply to {request.email}.
        </p>
      </SuccessPanel>
    );
  }

  return (
    <form noValidate onSubmit={handleSubmit(setRequest)} className="space-y-4" aria-label="Demo request form">
      <TextField label="Name" autoComplete="name" error={errors.name?.message} {...register('name')} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Organisation"
        autoComplete="organization"
        error={errors.organisation?.message}
        {...register('organisation')}
      />
      <TextAreaField
        label="Message"
        rows={4}
        placeholder="How many people would you monitor? What would you like to see?"
        error={errors.message?.message}
        {...register('message')}
      />
      <Button type="submit" size="lg" className="w-full">
        Request Demo
      </Button>
    </form>
  );
}

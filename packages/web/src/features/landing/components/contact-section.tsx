import { lazy, type ReactNode, Suspense } from 'react';
import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon } from '@/components/icons.tsx';
import { CONTACT_EMAIL } from '@/lib/contact-details.ts';
import { SECTIONS } from '@/lib/paths.ts';

/**
 * The form and its form library are fetched after the page: they sit at its end, and the landing
 * page's first paint should not wait for them.
 */
const ContactForm = lazy(() => import('./contact-form.tsx').then((m) => ({ default: m.ContactForm })));

const DETAILS: { label: string; value: ReactNode; icon: ReactNode }[] = [
  {
    label: 'Email',
    value: <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>,
    icon: <MailIcon />,
  },
  { label: 'Phone', value: <a href="tel:+15550102024">+1 (555) 010-2024</a>, icon: <PhoneIcon /> },
  { label: 'Office', value: '100 Health Way, Suite 200, Boston, MA 02110', icon: <MapPinIcon /> },
];

const HOURS = [
  ['Monday – Friday', '8:00 – 18:00'],
  ['Saturday', '9:00 – 13:00'],
  ['Sunday', 'Closed'],
] as const;

export function ContactSection() {
  return (
    <section
      id={SECTIONS.contact}
      aria-labelledby="contact-title"
      className="scroll-mt-20 bg-slate-100/70 py-20 dark:bg-slate-900/40"
    >
      <div className="mx-auto grid max-w-7xl gap-10 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-teal-700 dark:text-teal-400">
            Contact
          </p>
          <h2
            id="contact-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 dark:text-white"
          >
            Get in Touch
          </h2>
          <p className="mt-4 text-slate-600 dark:text-slate-300">
            Questions about devices, pricing or a pilot for your clinic? We are happy to help.
          </p>
          <ul className="mt-8 space-y-4">
            {DETAILS.map((d) => (
              <li key={d.label} className="flex items-start gap-3">
                <span className="rounded-lg bg-teal-50 p-2 text-teal-700 dark:bg-teal-950 dark:text-teal-300">
                  {d.icon}
                </span>
                <span>
                  <span className="block text-sm font-semibold text-slate-900 dark:text-white">
                    {d.label}
                  </span>
                  <span className="text-sm text-slate-600 underline-offset-4 dark:text-slate-300 [&_a]:hover:underline">
                    {d.value}
                  </span>
                </span>
              </li>
            ))}
          </ul>
          <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900">
            <h3 className="flex items-center gap-2 font-semibold text-slate-900 dark:text-white">
              <ClockIcon className="size-5 text-teal-700 dark:text-teal-400" /> Office hours
            </h3>
            <dl className="mt-3 space-y-1 text-sm">
              {HOURS.map(([days, time]) => (
                <div key={days} className="flex justify-between gap-4">
                  <dt className="text-slate-600 dark:text-slate-400">{days}</dt>
                  <dd className="font-medium text-slate-900 dark:text-slate-100">{time}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
              Monitoring and alerts run 24/7, independent of office hours.
            </p>
          </div>
        </div>
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
          <Suspense fallback={<div className="min-h-96" aria-hidden="true" />}>
            <ContactForm />
          </Suspense>
        </div>
      </div>
    </section>
  );
}

import type { ReactNode } from 'react';
import { BellIcon, HeartPulseIcon, LockIcon, PhoneIcon } from '@/components/icons.tsx';
import { SECTIONS } from '@/lib/paths.ts';

const FEATURES: { title: string; text: string; icon: ReactNode }[] = [
  {
    title: 'Real-time monitoring',
    text: 'Heart rate, blood pressure and oxygen levels streamed live from the wearable, with trends over time.',
    icon: <HeartPulseIcon className="size-6" />,
  },
  {
    title: 'Instant alerts',
    text: 'Falls, SOS presses, low battery and out-of-range vitals reach you at once, in the app and as push notifications.',
    icon: <BellIcon className="size-6" />,
  },
  {
    title: 'Mobile access',
    text: 'Check on the people you care for from any phone, tablet or computer, in light or dark mode.',
    icon: <PhoneIcon className="size-6" />,
  },
  {
    title: 'End-to-end encryption',
    text: 'Health data is encrypted in transit and access is limited to the people assigned to each device.',
    icon: <LockIcon className="size-6" />,
  },
];

export function FeaturesSection() {
  return (
    <section id={SECTIONS.features} aria-labelledby="features-title" className="scroll-mt-20 py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-teal-700 dark:text-teal-400">
            Features
          </p>
          <h2
            id="features-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 dark:text-white"
          >
            Everything you need to keep watch
          </h2>
          <p className="mt-4 text-slate-600 dark:text-slate-300">
            One place for every device, every reading and every alert.
          </p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((f) => (
            <li
              key={f.title}
              className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <span className="inline-flex rounded-xl bg-teal-50 p-3 text-teal-700 dark:bg-teal-950 dark:text-teal-300">
                {f.icon}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{f.title}</h3>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{f.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

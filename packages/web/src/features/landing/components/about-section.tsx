import { SECTIONS } from '@/lib/paths.ts';

const POINTS = [
  'Built with clinicians and carers for people living independently.',
  'Works with wearables that report SpO2, heart rate, temperature and battery.',
  'Administrators manage users, devices and platform health in one place.',
];

export function AboutSection() {
  return (
    <section id={SECTIONS.about} aria-labelledby="about-title" className="scroll-mt-20 py-20">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-teal-700 dark:text-teal-400">
            About
          </p>
          <h2
            id="about-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 dark:text-white"
          >
            Peace of mind for patients, families and care teams
          </h2>
          <p className="mt-4 text-slate-600 dark:text-slate-300">
            VitalWatch started with a simple question: how do you know someone is all right when you cannot be
            in the room? Our platform turns a wearable into a quiet guardian that watches vital signs day and
            night and speaks up only when it matters.
          </p>
        </div>
        <ul className="space-y-4 self-center">
          {POINTS.map((point) => (
            <li
              key={point}
              className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4 text-slate-700 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200"
            >
              <span
                aria-hidden="true"
                className="mt-1.5 size-2 shrink-0 rounded-full bg-teal-600 dark:bg-teal-400"
              />
              {point}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

import { CheckCircleIcon } from '@/components/icons.tsx';
import { DemoForm } from './demo-form.tsx';

const AGENDA = [
  'A live dashboard with heart rate, SpO2, temperature and battery',
  'How alerts for falls, SOS and abnormal readings reach carers',
  'Device setup with an activation code, and push notifications',
  'The admin area: users, devices and system status',
];

export function DemoPage() {
  return (
    <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-2 lg:px-8">
      <title>Request a Demo · VitalWatch</title>
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Request a Demo
        </h1>
        <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">
          See VitalWatch with your own use case in a 30-minute walkthrough with our team.
        </p>
        <h2 className="mt-8 font-semibold text-slate-900 dark:text-white">What we will show you</h2>
        <ul className="mt-4 space-y-3">
          {AGENDA.map((item) => (
            <li key={item} className="flex gap-3 text-slate-700 dark:text-slate-200">
              <CheckCircleIcon className="mt-0.5 size-5 shrink-0 text-teal-700 dark:text-teal-400" />
              {item}
            </li>
          ))}
        </ul>
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <DemoForm />
      </div>
    </div>
  );
}

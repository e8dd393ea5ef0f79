import { Link } from 'react-router';
import { buttonClasses } from '@/components/button.tsx';
import { homeForRole, PATHS } from '@/lib/paths.ts';
import { selectRole } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { VitalsPreview } from './vitals-preview.tsx';

const CLAIMS = [
  { value: '24/7', label: 'Monitoring' },
  { value: '99.9%', label: 'Accuracy' },
  { value: '<30s', label: 'Alert response' },
  { value: '1000+', label: 'Lives saved' },
] as const;

export function HeroSection() {
  const role = useAppSelector(selectRole);
  return (
    <section className="relative overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-gradient-to-br from-teal-50 via-white to-sky-50 dark:from-teal-950/40 dark:via-slate-950 dark:to-slate-950"
      />
      <div className="relative mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-2 lg:px-8">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-teal-200 bg-white/70 px-3 py-1 text-xs font-semibold text-teal-800 dark:border-teal-800 dark:bg-teal-950/50 dark:text-teal-300">
            Wearable health monitoring
          </p>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl dark:text-white">
            Vital signs watched around the clock,{' '}
            <span className="text-teal-700 dark:text-teal-400">alerts</span> in seconds.
          </h1>
          <p className="mt-5 max-w-xl text-lg text-slate-600 dark:text-slate-300">
            VitalWatch connects wearable devices to the people who rely on them: live heart rate, blood oxygen
            and temperature, device status, and instant alerts for falls, SOS presses and abnormal readings.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            {role ? (
              <Link to={homeForRole(role)} className={buttonClasses('primary', 'lg')}>
                Go to Dashboard
              </Link>
            ) : (
              <>
                <Link to={PATHS.signup} className={buttonClasses('primary', 'lg', 'w-full sm:w-auto')}>
                  Get Started Free
                </Link>
                <Link to={PATHS.demo} className={buttonClasses('secondary', 'lg', 'w-full sm:w-auto')}>
                  Request a Demo
                </Link>
              </>
            )}
          </div>
          <dl className="mt-10 grid grid-cols-2 gap-4 sm:grid-cols-4">
            {CLAIMS.map((claim) => (
              <div
                key={claim.label}
                className="rounded-xl border border-slate-200 bg-white/80 p-3 text-center dark:border-slate-800 dark:bg-slate-900/70"
              >
                <dt className="text-xs font-medium text-slate-600 dark:text-slate-400">{claim.label}</dt>
                <dd className="order-first text-2xl font-bold text-slate-900 dark:text-white">
                  {claim.value}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <VitalsPreview />
      </div>
    </section>
  );
}

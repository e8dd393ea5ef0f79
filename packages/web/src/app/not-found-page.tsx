import { Link } from 'react-router';
import { buttonClasses } from '@/components/button.tsx';
import { PATHS } from '@/lib/paths.ts';

export function NotFoundPage() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-4 py-24 text-center">
      <title>Page Not Found · VitalWatch</title>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">Page Not Found</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">The page you are looking for does not exist.</p>
      <Link to={PATHS.home} className={buttonClasses('secondary', 'md', 'mt-8')}>
        Back to home
      </Link>
    </div>
  );
}

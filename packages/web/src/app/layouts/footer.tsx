import { Link } from 'react-router';
import { LogoMark } from '@/components/logo.tsx';
import { PATHS } from '@/lib/paths.ts';

/**
 * The footer's links: the pages that exist. Of the spec's list, /pricing, /blog, /features and
 * /contact are left out (the product has no pricing or blog; features and contact live on the
 * landing page and in Support); /docs is the server's API reference, so it is labelled for
 * developers and loaded as a page of its own.
 */
const GROUPS = [
  {
    title: 'Help',
    links: [
      { label: 'User Guide', to: PATHS.guide },
      { label: 'FAQ', to: PATHS.faq },
      { label: 'Support', to: PATHS.support },
    ],
  },
  { title: 'Company', links: [{ label: 'About', to: PATHS.about }] },
  { title: 'Developers', links: [{ label: 'API reference', to: PATHS.apiReference, server: true }] },
] as const;

const LINK_CLASSES =
  'rounded text-sm text-slate-600 hover:text-teal-700 dark:text-slate-400 dark:hover:text-teal-400';

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <div className="mx-auto grid max-w-7xl grid-cols-3 gap-8 px-4 py-12 sm:px-6 md:grid-cols-5 lg:px-8">
        <div className="col-span-3 md:col-span-2">
          <p className="flex items-center gap-2 font-bold text-slate-900 dark:text-white">
            <LogoMark className="size-7" /> VitalWatch
          </p>
          <p className="mt-3 max-w-sm text-sm text-slate-600 dark:text-slate-400">
            Real-time health monitoring from wearable devices, with alerts that reach the right people in
            seconds.
          </p>
        </div>
        {GROUPS.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{group.title}</h2>
            <ul className="mt-3 space-y-2">
              {group.links.map((link) => (
                <li key={link.to}>
                  {'server' in link ? (
                    <a href={link.to} className={LINK_CLASSES}>
                      {link.label}
                    </a>
                  ) : (
                    <Link to={link.to} className={LINK_CLASSES}>
                      {link.label}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-200 px-4 py-6 text-center text-xs text-slate-500 dark:border-slate-800 dark:text-slate-400">
        © {new Date().getFullYear()} VitalWatch. Not a substitute for emergency services: in an emergency,
        call your local emergency number.
      </div>
    </footer>
  );
}

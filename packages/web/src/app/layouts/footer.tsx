import { Link } from 'react-router';
import { LogoMark } from '@/components/logo.tsx';

/** The footer's links of spec section 2 (these pages are not part of the product yet). */
const GROUPS = [
  {
    title: 'Product',
    links: [
      { label: 'Features', to: '/features' },
      { label: 'Pricing', to: '/pricing' },
      { label: 'Docs', to: '/docs' },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'About', to: '/about' },
      { label: 'Blog', to: '/blog' },
      { label: 'Contact', to: '/contact' },
    ],
  },
  {
    title: 'Help',
    links: [
      { label: 'Support', to: '/support' },
      { label: 'FAQ', to: '/faq' },
    ],
  },
] as const;

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
                  <Link
                    to={link.to}
                    className="rounded text-sm text-slate-600 hover:text-teal-700 dark:text-slate-400 dark:hover:text-teal-400"
                  >
                    {link.label}
                  </Link>
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

import { NavLink } from 'react-router';
import type { NavItem } from './nav-items.ts';

interface NavLinkItemProps {
  item: NavItem;
  /** Layout classes: inline in the bar, block in the mobile menu. */
  className: string;
  onNavigate?: () => void;
  /** Unread alerts: a red count after the label, and "Alerts (3 unread)" as its name. */
  unread?: number | null;
}

const idle =
  'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';
const current = 'bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-300';
/** More than this shows as "99+". */
const BADGE_MAX = 99;

/** A header link; section links (#features, #about) never look "current", the page link does. */
export function NavLinkItem({ item, className, onNavigate, unread }: NavLinkItemProps) {
  const isSection = typeof item.to !== 'string' && Boolean(item.to.hash);
  const badge = unread ? (unread > BADGE_MAX ? `${BADGE_MAX}+` : String(unread)) : null;
  return (
    <NavLink
      to={item.to}
      end={item.end}
      onClick={onNavigate}
      className={({ isActive }) =>
        `${className} rounded-lg font-medium ${isActive && !isSection ? current : idle}`
      }
    >
      {item.label}
      {badge && (
        <>
          <span
            aria-hidden="true"
            data-testid="unread-badge"
            className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-700 px-1.5 py-0.5 align-text-top text-xs leading-none font-bold text-white dark:bg-red-600"
          >
            {badge}
          </span>
          {/* The name reads "Alerts (3 unread)"; the visible text stays part of it (WCAG 2.5.3). */}
          <span className="sr-only">{` (${unread} unread)`}</span>
        </>
      )}
    </NavLink>
  );
}

import { NavLink } from 'react-router';
import type { NavItem } from './nav-items.ts';

interface NavLinkItemProps {
  item: NavItem;
  /** Layout classes: inline in the bar, block in the mobile menu. */
  className: string;
  onNavigate?: () => void;
}

const idle =
  'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';
const current = 'bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-300';

/** A header link; section links (#features, #about) never look "current", the page link does. */
export function NavLinkItem({ item, className, onNavigate }: NavLinkItemProps) {
  const isSection = typeof item.to !== 'string' && Boolean(item.to.hash);
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
    </NavLink>
  );
}

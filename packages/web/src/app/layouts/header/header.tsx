import { HEADER_TRANSLUCENT_SCROLL_PX, TOASTS } from '@vitalwatch/shared';
import { useCallback, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { toast } from 'react-toastify';
import { buttonClasses } from '@/components/button.tsx';
import { CloseIcon, MenuIcon } from '@/components/icons.tsx';
import { Logo } from '@/components/logo.tsx';
import { useDismiss } from '@/components/use-dismiss.ts';
import { useLogout } from '@/features/auth/hooks/use-logout.ts';
import { homeForRole, PATHS } from '@/lib/paths.ts';
import { selectCurrentUser, selectRole } from '@/lib/store/auth-slice.ts';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { useUnreadBadge } from '@/lib/unread-badge.ts';
import { navItemsFor } from './nav-items.ts';
import { NavLinkItem } from './nav-link-item.tsx';
import { ThemeToggle } from './theme-toggle.tsx';
import { useScrolled } from './use-scrolled.ts';
import { UserMenu } from './user-menu.tsx';

const MOBILE_MENU_ID = 'mobile-menu';

export function Header() {
  const role = useAppSelector(selectRole);
  const user = useAppSelector(selectCurrentUser);
  const { pathname } = useLocation();
  const scrolled = useScrolled(HEADER_TRANSLUCENT_SCROLL_PX);
  const logout = useLogout();
  const [menuOpen, setMenuOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const mobileNav = useRef<HTMLElement>(null);
  // Focus inside the closing menu goes back to its button instead of falling to <body>.
  const closeMenu = useCallback(() => {
    if (mobileNav.current?.contains(document.activeElement)) menuButton.current?.focus();
    setMenuOpen(false);
  }, []);
  useDismiss(headerRef, menuOpen, closeMenu);

  const items = navItemsFor(role);
  const badge = useUnreadBadge();
  const unread = role === 'user' && badge ? badge : null;
  const unreadOf = (item: { to: unknown }) => (item.to === PATHS.alerts ? unread : null);
  const signOut = async () => {
    closeMenu();
    const ok = await logout();
    if (ok) toast.success(TOASTS.loggedOut);
    else toast.error(TOASTS.logoutFailed);
  };

  return (
    // While a menu is open, above the toasts (z-index 9999, which start below it): the menu opens over them.
    <header
      ref={headerRef}
      data-translucent={scrolled}
      className={`sticky top-0 z-40 border-b has-[[aria-expanded=true]]:z-[10000] transition-colors duration-200 ${
        scrolled
          ? 'border-slate-200/80 bg-white/70 shadow-sm backdrop-blur-md dark:border-slate-800/80 dark:bg-slate-950/70'
          : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950'
      }`}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-6 px-4 sm:px-6 lg:px-8">
        <Link to={role ? homeForRole(role) : PATHS.home} aria-label="VitalWatch home" className="rounded-lg">
          <Logo />
        </Link>
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {items.map((item) => (
              <li key={item.label}>
                <NavLinkItem item={item} className="px-3 py-2 text-sm" unread={unreadOf(item)} />
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          {user ? (
            <UserMenu user={user} onSignOut={signOut} />
          ) : pathname === PATHS.signin ? (
            <Link to={PATHS.signup} className={buttonClasses('primary', 'sm')}>
              Sign Up
            </Link>
          ) : (
            <Link to={PATHS.signin} className={buttonClasses('primary', 'sm')}>
              Log In
            </Link>
          )}
          <button
            ref={menuButton}
            type="button"
            aria-expanded={menuOpen}
            aria-controls={MOBILE_MENU_ID}
            aria-label={`${menuOpen ? 'Close menu' : 'Open menu'}${unread ? ` (${unread} unread alerts)` : ''}`}
            onClick={() => setMenuOpen((open) => !open)}
            className="relative rounded-lg p-2 text-slate-700 hover:bg-slate-100 md:hidden dark:text-slate-200 dark:hover:bg-slate-800"
          >
            {menuOpen ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
            {unread && !menuOpen && (
              <span className="absolute top-0.5 right-0.5 size-3 rounded-full border-2 border-white bg-red-700 dark:border-slate-950 dark:bg-red-500" />
            )}
          </button>
        </div>
      </div>
      <nav
        ref={mobileNav}
        id={MOBILE_MENU_ID}
        aria-label="Mobile"
        hidden={!menuOpen}
        className="border-t border-slate-200 px-4 pt-2 pb-4 md:hidden dark:border-slate-800"
      >
        <ul className="space-y-1">
          {items.map((item) => (
            <li key={item.label}>
              <NavLinkItem
                item={item}
                className="block px-3 py-2.5 text-base"
                onNavigate={closeMenu}
                unread={unreadOf(item)}
              />
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

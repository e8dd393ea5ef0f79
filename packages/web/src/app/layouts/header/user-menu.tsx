import type { PublicUser } from '@vitalwatch/shared';
import { useCallback, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ChevronDownIcon, LogOutIcon, UserIcon } from '@/components/icons.tsx';
import { useDismiss } from '@/components/use-dismiss.ts';
import { PATHS } from '@/lib/paths.ts';

interface UserMenuProps {
  user: PublicUser;
  onSignOut: () => void;
}

const item =
  'flex w-full items-center gap-2 px-4 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800';

/** The signed-in user's menu: username, Profile (not for admins), Sign out. */
export function UserMenu({ user, onSignOut }: UserMenuProps) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  // Closing while focus is in the menu (Escape, Profile) hands focus back to the account button,
  // rather than letting it fall to <body> when the menu's items disappear.
  const close = useCallback(() => {
    if (ref.current?.contains(document.activeElement)) button.current?.focus();
    setOpen(false);
  }, []);
  useDismiss(ref, open, close);

  return (
    <div ref={ref} className="relative">
      {/* Named by its content ("Account menu for ann"), so the name holds the visible username. */}
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <span
          aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-full bg-teal-700 font-semibold text-white uppercase dark:bg-teal-500 dark:text-slate-950"
        >
          {user.username.slice(0, 1)}
        </span>
        <span className="sr-only">Account menu for </span>
        <span className="max-w-40 truncate max-sm:sr-only">{user.username}</span>
        <ChevronDownIcon className="size-4" />
      </button>
      {open && (
        <div
          id={id}
          className="absolute right-0 mt-2 w-60 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="border-b border-slate-200 px-4 py-3 dark:border-slate-700">
            <p className="text-xs text-slate-500 dark:text-slate-400">Signed in as</p>
            <p
              data-testid="user-menu-username"
              className="truncate font-semibold text-slate-900 dark:text-white"
            >
              {user.username}
            </p>
          </div>
          {user.role !== 'admin' && (
            <Link to={PATHS.profile} onClick={close} className={item}>
              <UserIcon className="size-4" /> Profile
            </Link>
          )}
          <button
            type="button"
            className={item}
            onClick={() => {
              close();
              onSignOut();
            }}
          >
            <LogOutIcon className="size-4" /> Sign out
          </button>
        </div>
      )}
    </div>
  );
}

import { MoonIcon, SunIcon } from '@/components/icons.tsx';
import { useAppDispatch, useAppSelector } from '@/lib/store/hooks.ts';
import { selectPageTheme, themeToggled } from '@/lib/store/theme-slice.ts';

export function ThemeToggle() {
  const dispatch = useAppDispatch();
  const theme = useAppSelector(selectPageTheme);
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <button
      type="button"
      onClick={() => dispatch(themeToggled())}
      aria-label={label}
      title={label}
      className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
    >
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}

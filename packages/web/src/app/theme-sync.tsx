import { useLayoutEffect } from 'react';
import { useAppSelector } from '@/lib/store/hooks.ts';
import { selectPageTheme } from '@/lib/store/theme-slice.ts';
import { applyThemeClass } from '@/lib/theme-storage.ts';

/** Keeps the `dark`/`light` class on <html> in step with the store. */
export function ThemeSync() {
  const theme = useAppSelector(selectPageTheme);
  useLayoutEffect(() => applyThemeClass(theme), [theme]);
  return null;
}

import { STORAGE_KEYS } from '@vitalwatch/shared';
import { z } from 'zod';

export const PAGE_THEMES = ['light', 'dark'] as const;
export const pageThemeSchema = z.enum(PAGE_THEMES);
export type PageTheme = z.infer<typeof pageThemeSchema>;

/** The stored theme, or null when none (or something unreadable) is stored. */
export function readStoredTheme(): PageTheme | null {
  try {
    const parsed = pageThemeSchema.safeParse(window.localStorage.getItem(STORAGE_KEYS.theme));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function storeTheme(theme: PageTheme): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // Without storage the theme still applies for this visit.
  }
}

/** The stored choice, else the system preference, else light. */
export function initialTheme(): PageTheme {
  const stored = readStoredTheme();
  if (stored) return stored;
  const prefersDark =
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
  return prefersDark ? 'dark' : 'light';
}

/** The theme is a class on the document root (`dark` or `light`), which Tailwind's dark variant reads. */
export function applyThemeClass(theme: PageTheme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  root.style.colorScheme = theme;
}

import { STORAGE_KEYS } from '@vitalwatch/shared';

// Plain checks, not zod: this runs on every first page, which loads no zod (vite.config.ts).
export const PAGE_THEMES = ['light', 'dark'] as const;
export type PageTheme = (typeof PAGE_THEMES)[number];
const isPageTheme = (value: unknown): value is PageTheme => PAGE_THEMES.some((theme) => theme === value);

/** The stored theme, or null when none (or something unreadable) is stored. */
export function readStoredTheme(): PageTheme | null {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEYS.theme);
    return isPageTheme(stored) ? stored : null;
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

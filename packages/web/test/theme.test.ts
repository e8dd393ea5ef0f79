import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '@/app/store.ts';
import { selectPageTheme, themeSet, themeToggled } from '@/lib/store/theme-slice.ts';
import { applyThemeClass, initialTheme, readStoredTheme } from '@/lib/theme-storage.ts';

function prefersDark(dark: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: dark && query === '(prefers-color-scheme: dark)' })),
  );
}

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
});
afterEach(() => vi.unstubAllGlobals());

describe('initial theme', () => {
  it('defaults to light without a stored choice or system preference', () => {
    prefersDark(false);
    expect(initialTheme()).toBe('light');
    expect(selectPageTheme(makeStore().getState())).toBe('light');
  });

  it('follows prefers-color-scheme when nothing is stored', () => {
    prefersDark(true);
    expect(makeStore().getState().theme.pageTheme).toBe('dark');
  });

  it('prefers the stored choice over the system preference', () => {
    prefersDark(true);
    localStorage.setItem('theme', 'light');
    expect(makeStore().getState().theme.pageTheme).toBe('light');
  });

  it('ignores a stored value that is not a theme', () => {
    prefersDark(false);
    localStorage.setItem('theme', '{"evil":true}');
    expect(readStoredTheme()).toBeNull();
    expect(initialTheme()).toBe('light');
  });
});

describe('theme slice and persistence', () => {
  it('toggles between light and dark and stores every explicit choice under "theme"', () => {
    prefersDark(false);
    const store = makeStore();
    expect(localStorage.getItem('theme')).toBeNull();
    store.dispatch(themeToggled());
    expect(store.getState().theme.pageTheme).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    store.dispatch(themeToggled());
    expect(localStorage.getItem('theme')).toBe('light');
    store.dispatch(themeSet('dark'));
    expect(localStorage.getItem('theme')).toBe('dark');
    // A new visit starts from the stored choice.
    expect(makeStore().getState().theme.pageTheme).toBe('dark');
  });

  it('applies the theme as a class on the document root', () => {
    applyThemeClass('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.classList.contains('light')).toBe(false);
    applyThemeClass('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(document.documentElement.classList.contains('light')).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { render } from '@testing-library/react';
import { BOOT_SCRIPT, NO_STORED_SESSION_CLASS, STORAGE_KEYS } from '@vitalwatch/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUBTITLE, TITLE } from '@/app/user-area/overview-page.tsx';
import { Logo } from '@/components/logo.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { APP_SHELL_ID, useRemoveAppShell } from '@/lib/app-shell.ts';
import { initialTheme } from '@/lib/theme-storage.ts';

const SHELL = readFileSync(path.join(import.meta.dirname, '../src/app/shells/dashboard.html'), 'utf8');

function prefersDark(dark: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: dark && query === '(prefers-color-scheme: dark)' })),
  );
}

/** Runs the boot script as the page's <head> does, on a fresh <html>. */
function boot(): DOMTokenList {
  const root = document.documentElement;
  root.className = '';
  root.removeAttribute('style');
  new Function(BOOT_SCRIPT)();
  return root.classList;
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('the boot script', () => {
  it.each([
    ['light', false],
    ['light', true],
    ['dark', false],
    ['dark', true],
    [null, false],
    [null, true],
    ['purple', true],
  ])('sets the theme class the app will set (stored %s, system dark %s)', (stored, systemDark) => {
    prefersDark(systemDark);
    if (stored) localStorage.setItem(STORAGE_KEYS.theme, stored);
    const classes = boot();
    const theme = initialTheme();
    expect(classes.contains(theme)).toBe(true);
    expect(classes.contains(theme === 'dark' ? 'light' : 'dark')).toBe(false);
    expect(document.documentElement.style.colorScheme).toBe(theme);
  });

  it('marks a browser without a stored session, and only such a browser', () => {
    prefersDark(false);
    expect(boot().contains(NO_STORED_SESSION_CLASS)).toBe(true);
    localStorage.setItem(STORAGE_KEYS.accessToken, 'a-token');
    expect(boot().contains(NO_STORED_SESSION_CLASS)).toBe(false);
  });
});

describe("the dashboard's static first screen", () => {
  const shell = () => {
    const holder = document.createElement('div');
    holder.innerHTML = SHELL;
    return holder;
  };

  it('has the title block the page draws, with the same classes, so the real heading lands where it stood', () => {
    const { container } = render(<PageHeader title={TITLE} subtitle={SUBTITLE} />);
    const real = { h1: container.querySelector('h1'), p: container.querySelector('p') };
    const fixed = { h1: shell().querySelector('h1'), p: shell().querySelector('h1 + p') };
    expect(fixed.h1?.textContent).toBe(real.h1?.textContent);
    expect(fixed.h1?.className).toBe(real.h1?.className);
    expect(fixed.p?.textContent).toBe(real.p?.textContent);
    expect(fixed.p?.className).toBe(real.p?.className);
    expect(fixed.h1?.parentElement?.parentElement?.className).toBe(container.firstElementChild?.className);
  });

  it("has the header's logo", () => {
    const { container } = render(<Logo />);
    const logo = shell().querySelector('header span');
    expect(logo?.textContent?.trim()).toBe(container.textContent);
    expect(logo?.querySelector('svg')?.getAttribute('class')).toBe(
      container.querySelector('svg')?.getAttribute('class'),
    );
  });

  it('stays until the app is ready, then goes in that commit', () => {
    document.body.innerHTML = SHELL;
    function Page({ ready }: { ready: boolean }) {
      useRemoveAppShell(ready);
      return null;
    }
    const { rerender } = render(<Page ready={false} />);
    expect(document.getElementById(APP_SHELL_ID)).not.toBeNull();
    rerender(<Page ready />);
    expect(document.getElementById(APP_SHELL_ID)).toBeNull();
  });
});

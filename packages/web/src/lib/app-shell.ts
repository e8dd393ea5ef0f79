import { useLayoutEffect } from 'react';

/** The element of a page's static first screen (src/app/shells, put in by vite-area-pages.ts). */
export const APP_SHELL_ID = 'app-shell';

/**
 * Takes the page's static first screen away once `ready`: in the commit that draws the real screen
 * (a layout effect runs before the browser paints), so the two never show together and nothing
 * blank shows between them. Until then the app's loading screens stay hidden under it.
 */
export function useRemoveAppShell(ready: boolean): void {
  useLayoutEffect(() => {
    if (ready) document.getElementById(APP_SHELL_ID)?.remove();
  }, [ready]);
}

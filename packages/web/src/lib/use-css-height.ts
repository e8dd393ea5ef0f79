import { type RefObject, useLayoutEffect } from 'react';

/**
 * Keeps the element's height in a CSS variable on the document root (`--name: 48px`) while it
 * is mounted, for what must stay clear of it (toasts below a sticky bar).
 */
export function useCssHeight(ref: RefObject<HTMLElement | null>, name: string): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement.style;
    const update = () => root.setProperty(name, `${element.offsetHeight}px`);
    update();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.removeProperty(name);
    };
  });
}

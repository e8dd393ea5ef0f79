import { useMediaQuery } from './use-media-query.ts';

/**
 * A phone held either way: narrower than Tailwind's sm (640 px), or shorter than 500 px (a phone
 * in landscape). The same query is the `compact:` variant in index.css. Asked this way round, a
 * browser that cannot tell gets the full layout.
 */
export const COMPACT_SCREEN = '(max-width: 639.98px), (max-height: 499.98px)';

/** Whether the screen is compact (see COMPACT_SCREEN), kept up to date as it turns. */
export const useCompactScreen = (): boolean => useMediaQuery(COMPACT_SCREEN);

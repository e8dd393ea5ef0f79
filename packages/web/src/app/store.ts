import { configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { api } from '@/lib/store/api.ts';
import type { AppDispatch, RootState } from '@/lib/store/hooks.ts';
import { rootReducer } from '@/lib/store/root-reducer.ts';
import { selectPageTheme, themeSet, themeToggled } from '@/lib/store/theme-slice.ts';
import { storeTheme } from '@/lib/theme-storage.ts';

/** One store per app (and per test): auth, theme and the RTK Query cache of server data. */
export function makeStore() {
  const listeners = createListenerMiddleware();
  // Only an explicit choice is stored: until then the theme follows the system preference.
  listeners.startListening.withTypes<RootState, AppDispatch>()({
    matcher: isAnyOf(themeToggled, themeSet),
    effect: (_action, api) => storeTheme(selectPageTheme(api.getState())),
  });
  return configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault().prepend(listeners.middleware).concat(api.middleware),
    // Socket events are written into the RTK Query cache. Batched, the screen would hear of each
    // change at the next animation frame (in a background tab, only once it is shown again), after
    // the event's own React updates; announced at once, a live reading shows with them.
    enhancers: (getDefault) => getDefault({ autoBatch: false }),
  });
}

export type AppStore = ReturnType<typeof makeStore>;

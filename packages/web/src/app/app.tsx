import { setupListeners } from '@reduxjs/toolkit/query';
import { StrictMode, useEffect, useState } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './routes.tsx';
import { makeStore } from './store.ts';

/** The whole web app: global store, then the router with its layouts and guards. */
export function App() {
  const [store] = useState(makeStore);
  const [router] = useState(() => createBrowserRouter(routes));
  // The store hears when the tab is hidden or shown: polled screens skip their turns meanwhile.
  useEffect(() => setupListeners(store.dispatch), [store]);
  return (
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>
  );
}

import { StrictMode, useState } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './routes.tsx';
import { makeStore } from './store.ts';

/** The whole web app: global store, then the router with its layouts and guards. */
export function App() {
  const [store] = useState(makeStore);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>
  );
}

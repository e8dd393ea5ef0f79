import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { PATHS } from './src/lib/paths.ts';
import { areaPages } from './vite-area-pages.ts';
import { precompress } from './vite-precompress.ts';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    areaPages({
      'src/app/areas/auth-area.ts': { paths: [PATHS.signin, PATHS.signup] },
      'src/app/areas/user-area.ts': {
        paths: [PATHS.dashboard],
        shells: { [PATHS.dashboard]: 'src/app/shells/dashboard.html' },
      },
      'src/app/areas/admin-area.ts': { paths: [PATHS.admin] },
    }),
    precompress(),
  ],
  resolve: {
    alias: [
      // `@/` is `src/`, as in tsconfig.json and vitest.config.ts: imports read `@/lib/api-client.ts`.
      { find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) },
      // zod without its eval probe, which the CSP reports as a violation on every page (src/lib/zod).
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod/index.ts', import.meta.url)) },
    ],
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/socket.io': { target: 'http://127.0.0.1:3000', ws: true },
    },
  },
  // Source maps are written for debugging a build but not linked from it, and the server does not serve them.
  build: {
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // Libraries only some screens need, in chunks of their own, loaded with those screens: left
        // to itself the bundler merges them into chunks every screen loads (zod into the entry,
        // Chart.js with the modals both areas share). A visitor's first page parses no zod, and
        // the dashboard draws before its chart's code arrives.
        codeSplitting: {
          groups: [
            // React first, so the groups below (which take their libraries' dependencies) leave it be.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]lib[\\/]zod[\\/]/ },
            {
              name: 'chart',
              test: /node_modules[\\/](chart\.js|@kurkle|react-chartjs-2|chartjs-plugin-zoom|hammerjs)[\\/]/,
            },
          ],
        },
      },
    },
  },
});

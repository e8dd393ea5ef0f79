import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './vite-precompress.ts';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  // zod without its eval probe, which the CSP reports as a violation on every page (src/lib/zod).
  resolve: {
    alias: [
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
        // zod in a chunk of its own, loaded with the first API call or form: left to itself the
        // bundler merges it into the entry, and a visitor's first page parses nothing.
        codeSplitting: {
          groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|src[\\/]lib[\\/]zod[\\/]/ }],
        },
      },
    },
  },
});

import { defineConfig } from 'vite';

// `npx msw init public --save=false` puts MSW's worker script in public/, served at /mockServiceWorker.js.
export default defineConfig({ publicDir: 'public' });

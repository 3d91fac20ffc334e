/**
 * Vite configuration of the dashboard (src/dashboard): built into dist/dashboard and served by
 * the service under /dashboard. Vite 8 transforms TSX itself (oxc); no React plugin is needed.
 * `npm run dev:dashboard` serves it with hot reload and proxies the API to DASHBOARD_API
 * (default http://localhost:8000, the service's default PORT).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.DASHBOARD_API ?? 'http://localhost:8000';

export default defineConfig({
  root,
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      onwarn(warning, warn) {
        // react-router marks its modules "use client" (for React Server Components); meaningless in a browser bundle
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(['/graphql', '/auth', '/v1', '/oauth', '/mcp', '/.well-known', '/health'].map((p) => [p, { target: api, changeOrigin: false }])),
  },
});

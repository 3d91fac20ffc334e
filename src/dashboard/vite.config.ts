/**
 * Vite configuration of the dashboard (src/dashboard) and of the GraphQL explorer (explorer.html,
 * GraphiQL): built into dist/dashboard (with Brotli and
 * gzip copies of the assets) and served by the service under /dashboard. Vite 8 transforms TSX itself (oxc); no React plugin is needed.
 * `npm run dev:dashboard` serves it with hot reload and proxies the API to DASHBOARD_API
 * (default http://localhost:8000, the service's default PORT).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.DASHBOARD_API ?? 'http://localhost:8000';

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy beside every JS, CSS and HTML file of the build: the
 * service sends the one the browser accepts (src/http/dashboard.ts) without compressing per request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'dashboard-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir).filter((f) => /\.(js|css|svg|json)$/.test(f))) {
        const data = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root,
  plugins: [precompress()],
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // the explorer's entry (GraphiQL, its UI kit and graphql-js: ~780 kB, 210 kB Brotli) is one
    // chunk that only GET /graphql loads; the dashboard's own chunks stay far below this
    chunkSizeWarningLimit: 850,
    rollupOptions: {
      // Two pages: the dashboard, and the GraphQL explorer served at GET /graphql (src/http/graphql-explorer.ts)
      input: { index: path.join(root, 'index.html'), explorer: path.join(root, 'explorer.html') },
      onwarn(warning, warn) {
        // react-router marks its modules "use client" (for React Server Components); meaningless in a browser bundle
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    // The API refuses cookie-authenticated posts from another origin (src/http/cross-site.ts): the
    // dev server's pages speak for the API's origin (development only; run the API with its default BASE_URL).
    proxy: Object.fromEntries(
      ['/graphql', '/auth', '/v1', '/oauth', '/mcp', '/.well-known', '/health'].map((p) => [p, { target: api, changeOrigin: false, headers: { origin: new URL(api).origin } }]),
    ),
  },
});

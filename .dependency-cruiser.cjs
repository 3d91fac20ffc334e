/**
 * Import rules: the layers of docs/ARCHITECTURE.md, checked by `npm run lint:imports` (part of
 * `npm test`, so CI runs it). Imports point down only:
 *
 *   doors     src/rest, src/graphql, subgraphs/, src/mcp, src/oauth, src/http, src/cli, bench/,
 *             and the composition root (src/main.ts, src/app.ts, src/platform.ts, src/db, the
 *             process locks): they may import everything below
 *   services  src/modules/<domain>: the rules; no HTTP, no GraphQL, no MCP
 *   engines   src/engines: search and embedding adapters behind their ports
 *             (search-engine.ts, embedder.ts)
 *   kernel    src/domain (the corpus's document model), src/util, src/errors.ts, src/logger.ts,
 *             src/validation*, src/context.ts, src/config.ts: imported by every layer, import
 *             nothing of ours above them
 *
 * Tests (`*.test.ts`, test/) may import anything, and are not imported by the service.
 * No rule has an exception today. Where one cannot hold for a good reason, narrow it with a
 * `pathNot` for that file alone, the reason in a comment beside it.
 */

const TEST = '(^test/|\\.test\\.tsx?$)';
const KERNEL = '^src/(domain/|util/|validation/|errors\\.ts$|logger\\.ts$|validation\\.ts$|context\\.ts$|config\\.ts$)';
const ENGINES = '^src/engines/';
const SERVICES = '^src/modules/';
const DASHBOARD = '^src/dashboard/';
/** Our own code (node_modules and node's built-ins are not layered). */
const OURS = '^(src|subgraphs|bench|test|migrations)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle has no bottom to read or test from: break it by moving what both sides need one layer down.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'kernel-imports-only-kernel',
      severity: 'error',
      comment: 'The kernel (src/domain, src/util, errors, logger, validation, context, config) is imported by every layer, so it imports none of them.',
      from: { path: KERNEL, pathNot: TEST },
      to: { path: OURS, pathNot: [KERNEL, TEST] },
    },
    {
      name: 'engines-import-only-engines-and-kernel',
      severity: 'error',
      comment: 'Engines are adapters behind ports: they know the document model (src/domain), never the services or the doors.',
      from: { path: ENGINES, pathNot: TEST },
      to: { path: OURS, pathNot: [ENGINES, KERNEL, TEST] },
    },
    {
      name: 'services-do-not-import-doors',
      severity: 'error',
      comment: 'A service serves every door alike (REST, GraphQL, MCP): it imports services, engines and the kernel, never a door or the composition root.',
      from: { path: SERVICES, pathNot: TEST },
      to: { path: OURS, pathNot: [SERVICES, ENGINES, KERNEL, TEST] },
    },
    {
      name: 'services-see-engine-ports-not-adapters',
      severity: 'error',
      comment:
        'A service talks to the ports (search-engine.ts, embedder.ts) and never knows which engine runs; the configuration picks the adapter ' +
        '(src/engines/create-search-engine.ts, embedders/create-embedder.ts, called by the composition root).',
      from: { path: SERVICES, pathNot: TEST },
      to: { path: '^src/engines/(embedded|elasticsearch|pinecone|embedders)/' },
    },
    {
      name: 'routes-are-mounted-by-the-app-only',
      severity: 'error',
      comment:
        "A door's routes (src/rest/*.routes.ts, src/oauth/oauth.routes.ts, src/mcp/mcp.routes.ts) are mounted by src/app.ts; what two doors share " +
        '(cookies, the identity-provider redirect, request context) lives in src/http. The REST toolkit (src/rest/rest-api.ts, src/rest/errors.ts) is not a route and may be shared.',
      from: { pathNot: ['^src/app\\.ts$', TEST] },
      to: { path: '\\.routes\\.ts$' },
    },
    {
      name: 'no-production-code-imports-tests',
      severity: 'error',
      comment: 'Test helpers and fixtures stay out of the service. bench/ is development tooling and may reuse the test databases.',
      from: { path: OURS, pathNot: [TEST, '^bench/'] },
      to: { path: TEST },
    },
    {
      name: 'dashboard-is-a-separate-client',
      severity: 'error',
      comment: 'The dashboard is a browser build that talks to the service over GraphQL and REST only: no import crosses between it and the server.',
      // vite.config.ts and codegen.ts are build scripts run by node, not part of the browser build
      from: { path: DASHBOARD, pathNot: '^src/dashboard/(vite\\.config|codegen)\\.ts$' },
      to: { path: OURS, pathNot: DASHBOARD },
    },
    {
      name: 'server-does-not-import-the-dashboard',
      severity: 'error',
      comment: 'The server serves the dashboard\'s built files (src/http/dashboard.ts); it does not import its sources.',
      from: { path: OURS, pathNot: [DASHBOARD, TEST] },
      to: { path: DASHBOARD },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing: a typo, or a package that is not in package.json.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/dashboard/gql/', '^dist/'] },
    // type-only imports count: a type that points up is a dependency that points up
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: {
      text: { highlightFocused: false },
    },
  },
};

# syntax=docker/dockerfile:1
# The legal search service: multi-stage, non-root, Node 24.
#   docker build -t legal-search .
#   docker compose up            (the whole platform: docker-compose.yml)
# The service runs its TypeScript through tsx (as `npm start` does): no separate JS build.

ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Every dependency (dev ones included) and the sources: the typecheck gates the image.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# --ignore-scripts: `prepare` builds the dashboard, which needs the sources copied below.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY subgraphs ./subgraphs
COPY migrations ./migrations
COPY test ./test
COPY bench ./bench
RUN npm run typecheck && npm run build:dashboard

# 2. Production dependencies only (native ones, LanceDB and onnxruntime, built for this platform).
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# 3. The runtime image: the production dependencies, the sources, the migrations, the
#    composed supergraph, the billing catalogue and the built dashboard; runs as the unprivileged `node` user.
FROM ${NODE_IMAGE} AS runtime
# MALLOC_ARENA_MAX: glibc's allocator, not the service's setting: LanceDB's native threads
# otherwise each get an arena and fragment them (~220 MiB more RSS on the shared corpus; docs/SCALING.md, "Memory of one process").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PORT=8000 \
    DATA_DIR=/app/data \
    CORPUS_DIR=/corpus \
    DASHBOARD_DIR=/app/dist/dashboard
WORKDIR /app
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json tsconfig.json billing-catalogue.json ./
COPY --chown=root:root migrations ./migrations
COPY --chown=root:root graphql ./graphql
COPY --chown=root:root legal ./legal
COPY --from=build --chown=root:root /app/src ./src
COPY --from=build --chown=root:root /app/subgraphs ./subgraphs
COPY --from=build --chown=root:root /app/dist/dashboard ./dist/dashboard
# DATA_DIR (models, PGlite when DATABASE_URL is unset, the embedded index) is the only writable place.
RUN mkdir -p /app/data /corpus && chown node:node /app/data
USER node
EXPOSE 8000
VOLUME ["/app/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "src/main.ts"]

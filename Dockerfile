# The service as a container image: built here, started as `node dist/main.js` (no compile step at
# start). docs/operations.md#process-managers-and-containers says how to run it and what is tested.
#   docker build --build-arg SOURCE_REVISION=$(git rev-parse HEAD) -t gitlab-admin .
#   docker run -p 8080:8080 -v gitlab-admin-data:/data -e EXTERNAL_URL=http://localhost:8080 gitlab-admin

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
# The commit GET /api/v4/version reports (dist/build-info.json): the context has no .git to read it from.
ARG SOURCE_REVISION=unknown
RUN SOURCE_REVISION=$SOURCE_REVISION npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
# HOST 0.0.0.0: reachable through the container's published port. DATA_DIR (a volume): the embedded
# PostgreSQL's data and, unless SECRETS_KEY is set, the generated secrets key.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Read at run time by the dashboard page (src/dashboard/dashboard-page.ts); no TypeScript is shipped.
COPY --from=build /app/src/dashboard/assets ./src/dashboard/assets
RUN mkdir -p /data && chown node:node /data
# Not root: the embedded PostgreSQL then runs as this user directly (docs/operations.md#where-the-embedded-postgresql-runs).
USER node
VOLUME ["/data"]
EXPOSE 8080
# SIGTERM reaches node itself (no shell, no npm): it drains, stops the workers, then the embedded PostgreSQL.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.MONITORING_PORT||process.env.PORT)+'/-/readiness').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# The flags of package.json's start script (a test keeps them equal).
CMD ["node", "--max-old-space-size=384", "--max-semi-space-size=32", "--no-allocation-site-pretenuring", "dist/main.js"]

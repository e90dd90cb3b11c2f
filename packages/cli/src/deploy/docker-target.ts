import type { DeploymentAdapter, DeploymentBuildResult } from '@lousho/core';
import { buildNodeServer } from './node-target.js';
import { writeText } from './output.js';

/** The Node image the Dockerfile builds on: an exact release line, Debian slim. */
export const NODE_IMAGE = 'node:20.19-bookworm-slim';

/**
 * Two stages: `deps` installs the native modules the bundle leaves out (compilers stay in that
 * stage), the final stage holds the bundle and those modules only, and runs as the unprivileged
 * `node` user. A source map (`--sourcemap`) is never copied into the image: it holds the full sources.
 */
export function dockerfile(): string {
  return `# syntax=docker/dockerfile:1
# Built by lousho build --target docker.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json server.mjs healthcheck.mjs ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --retries=3 CMD ["node", "healthcheck.mjs"]
STOPSIGNAL SIGTERM
CMD ["node", "server.mjs"]
`;
}

const HEALTHCHECK = `// Exits 0 when the server answers /healthz with 200 (the image's HEALTHCHECK).
const port = process.env.PORT || 3000;
fetch(\`http://127.0.0.1:\${port}/healthz\`, { signal: AbortSignal.timeout(4000) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
`;

const DOCKERIGNORE = `node_modules
npm-debug.log
.lousho
.lousho-output.json
*.map
`;

export const dockerAdapter: DeploymentAdapter = {
  name: 'docker',
  description: 'A Docker build context: the Node server bundle, a multi-stage Dockerfile, non-root',
  async build(context): Promise<DeploymentBuildResult> {
    const { files } = await buildNodeServer(context);
    files.push(await writeText(context.outDir, 'healthcheck.mjs', HEALTHCHECK));
    files.push(await writeText(context.outDir, 'Dockerfile', dockerfile()));
    files.push(await writeText(context.outDir, '.dockerignore', DOCKERIGNORE));
    return { files, instructions: `docker build -t my-agent ${context.outDir} && docker run -p 3000:3000 --env-file .env my-agent` };
  },
};

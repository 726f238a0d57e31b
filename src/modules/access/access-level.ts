/** GitLab access levels (members API): 10 guest, 20 reporter, 30 developer, 40 master, 50 owner. */
export const AccessLevel = {
  NONE: 0,
  GUEST: 10,
  REPORTER: 20,
  DEVELOPER: 30,
  MASTER: 40,
  OWNER: 50,
} as const;

export const GROUP_MEMBER_ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;
/** Project members and shares go up to Master in GitLab 10.x. */
export const PROJECT_MEMBER_ACCESS_LEVELS = [10, 20, 30, 40] as const;
export const SHARE_ACCESS_LEVELS = [10, 20, 30, 40] as const;

/** GitLab's human access names (Member#human_access). */
export const HUMAN_ACCESS: Record<number, string> = {
  10: 'Guest',
  20: 'Reporter',
  30: 'Developer',
  40: 'Master',
  50: 'Owner',
};
/** Visibility levels' names in payloads (GitLab's Gitlab::VisibilityLevel.string_level). */
export const VISIBILITY_NAME: Record<number, string> = { 0: 'private', 10: 'internal', 20: 'public' };

/**
 * GitLab's status-derived answers of a job (app/models/ci/build.rb, ci/processable.rb, concerns/ci/has_status.rb)
 * and the action of its CI badge (lib/gitlab/ci/status/build/*), as pure functions of the stored values.
 * What GitLab also reads and this service does not store is taken as GitLab's answer without the feature:
 * no job is archived (no `archive_builds_in` setting), none stops an environment (no job options), none
 * is protected (no protected refs) and none is scheduled (no delayed jobs).
 */

/** The stored values the rules read: `status` in lower case, `when` as GitLab's column (null: on_success). */
export interface JobState {
  status: string;
  when: string | null;
  retried: boolean | null;
  allowFailure: boolean;
}

/** A job row as the rules read it (the stored status is upper case in GraphQL's enum). */
export const jobStateOf = (job: {
  status: string;
  when: string | null;
  retried: boolean | null;
  allowFailure: boolean;
}): JobState => ({
  status: job.status.toLowerCase(),
  when: job.when,
  retried: job.retried,
  allowFailure: job.allowFailure,
});

/** Ci::HasStatus::ACTIVE_STATUSES among the statuses served here. */
const ACTIVE = new Set(['pending', 'running']);

/** `active?`: waiting for or taken by a runner. */
export const isActive = (j: JobState): boolean => ACTIVE.has(j.status);

/** `cancelable?`: `(active? || created?) && !canceling?`. */
export const isCancelable = (j: JobState): boolean => isActive(j) || j.status === 'created';

/** `retryable?`: finished (success, failed, canceled) and not already retried. */
export const isRetryable = (j: JobState): boolean =>
  !j.retried && (j.status === 'success' || j.status === 'failed' || j.status === 'canceled');

/** `action?`: a job that runs when someone plays it (`when: manual` or `delayed`). */
export const isAction = (j: JobState): boolean => j.when === 'manual' || j.when === 'delayed';

/** `playable?`: `action? && !archived? && (manual? || scheduled? || retryable?)`. */
export const isPlayable = (j: JobState): boolean => isAction(j) && (j.status === 'manual' || isRetryable(j));

/** `stuck?` is `pending? && !any_runners_online?`: the runner half is the runners module's (runners/job-stuck.ts). */
export const mayBeStuck = (j: JobState): boolean => j.status === 'pending';

/** A badge's action button (Gitlab::Ci::Status::Build::Play, Retryable, Cancelable). */
export interface StatusActionRule {
  kind: 'play' | 'retry' | 'cancel';
  icon: string;
  title: string;
  buttonTitle: string | null;
  /** Appended to the job's path. */
  pathSuffix: string;
  method: 'post';
}

const PLAY: StatusActionRule = {
  kind: 'play',
  icon: 'play',
  title: 'Run',
  buttonTitle: 'Run job',
  pathSuffix: '/play',
  method: 'post',
};
const RETRY: StatusActionRule = {
  kind: 'retry',
  icon: 'retry',
  title: 'Run again',
  buttonTitle: 'Run this job again',
  pathSuffix: '/retry',
  method: 'post',
};
const CANCEL: StatusActionRule = {
  kind: 'cancel',
  icon: 'cancel',
  title: 'Cancel',
  buttonTitle: null,
  pathSuffix: '/cancel',
  method: 'post',
};

/** FailedAllowed: a failure that was allowed (GitLab's `failed_with_warnings` badge). */
const isFailedAllowed = (j: JobState): boolean => j.status === 'failed' && j.allowFailure;

/**
 * The action GitLab's status factory puts on the badge. Its groups wrap in order, the first match of
 * each group: [Cancelable, Retryable], then [FailedAllowed, Play, Stop]; so Play replaces the retry of a
 * played manual job that finished, unless the job failed while allowed to (FailedAllowed comes first and
 * has no action). Every action needs update_build (`has_action?`): null without it.
 */
export function actionOf(j: JobState, canUpdate: boolean): StatusActionRule | null {
  if (!canUpdate) return null;
  if (isPlayable(j) && !isFailedAllowed(j)) return PLAY;
  if (isCancelable(j)) return CANCEL;
  if (isRetryable(j)) return RETRY;
  return null;
}

/** Gitlab::Ci::Status core text and label of each status. */
const CORE: Record<string, { text: string; label: string }> = {
  created: { text: 'Created', label: 'created' },
  pending: { text: 'Pending', label: 'pending' },
  running: { text: 'Running', label: 'running' },
  success: { text: 'Passed', label: 'passed' },
  failed: { text: 'Failed', label: 'failed' },
  canceled: { text: 'Canceled', label: 'canceled' },
  skipped: { text: 'Skipped', label: 'skipped' },
  manual: { text: 'Manual', label: 'manual action' },
};

/** The core text and label of a status (a pipeline's badge has no extended statuses here). */
export const coreBadge = (status: string): { text: string; label: string } =>
  CORE[status] ?? { text: status, label: status };

export interface Badge {
  group: string;
  icon: string;
  text: string;
  label: string;
}

/**
 * The badge's group, icon, text and label after GitLab's extended statuses: FailedAllowed (a failure
 * allowed to fail is `failed_with_warnings`) or else Play (`manual play action`), then Action, which adds
 * ` (not allowed)` to a playable job's label for a caller without its action.
 */
export function badgeOf(j: JobState, canUpdate: boolean): Badge {
  const core = CORE[j.status] ?? { text: j.status, label: j.status };
  const badge: Badge = { group: j.status, icon: `status_${j.status}`, text: core.text, label: core.label };
  if (isFailedAllowed(j)) {
    badge.group = 'failed_with_warnings';
    badge.icon = 'status_warning';
    badge.label = 'failed (allowed to fail)';
  } else if (isPlayable(j)) badge.label = 'manual play action';
  if (isPlayable(j) && !canUpdate) badge.label = `${badge.label} (not allowed)`;
  return badge;
}

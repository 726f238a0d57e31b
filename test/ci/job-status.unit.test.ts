import {
  actionOf,
  badgeOf,
  isAction,
  isActive,
  isCancelable,
  isPlayable,
  isRetryable,
  mayBeStuck,
  type JobState,
} from '../../src/modules/ci';

/** GitLab's answers per status (Ci::Build, Ci::Processable, Ci::HasStatus), written out from its source. */
const job = (status: string, more: Partial<JobState> = {}): JobState => ({
  status,
  when: 'on_success',
  retried: false,
  allowFailure: false,
  ...more,
});

describe('job status rules (unit)', () => {
  it.each([
    // status, active, cancelable, retryable, may be stuck
    ['created', false, true, false, false],
    ['pending', true, true, false, true],
    ['running', true, true, false, false],
    ['success', false, false, true, false],
    ['failed', false, false, true, false],
    ['canceled', false, false, true, false],
    ['skipped', false, false, false, false],
    ['manual', false, false, false, false],
  ])('%s: active %s, cancelable %s, retryable %s, stuck when no runner %s', (status, active, cancel, retry, stuck) => {
    const j = job(status);
    expect([isActive(j), isCancelable(j), isRetryable(j), mayBeStuck(j)]).toEqual([active, cancel, retry, stuck]);
    // A job that runs by itself is neither an action nor playable, whatever its status.
    expect([isAction(j), isPlayable(j)]).toEqual([false, false]);
  });

  it.each([
    // status, playable when manual
    ['created', false],
    ['pending', false],
    ['running', false],
    ['success', true],
    ['failed', true],
    ['canceled', true],
    ['skipped', false],
    ['manual', true],
  ])('a manual job in %s is playable: %s (manual, or finished and retryable)', (status, playable) => {
    expect(isPlayable(job(status, { when: 'manual' }))).toBe(playable);
    expect(isAction(job(status, { when: 'manual' }))).toBe(true);
    expect(isAction(job(status, { when: 'delayed' }))).toBe(true);
    expect(isAction(job(status, { when: null }))).toBe(false);
  });

  it('a retried job is no longer retryable, nor playable through it', () => {
    expect(isRetryable(job('failed', { retried: true }))).toBe(false);
    expect(isPlayable(job('success', { when: 'manual', retried: true }))).toBe(false);
    expect(isRetryable(job('failed', { retried: null }))).toBe(true);
  });

  it("the badge's action: play wins over retry, cancel for waiting and running jobs, none without update_build", () => {
    expect(actionOf(job('manual', { when: 'manual' }), true)).toMatchObject({ title: 'Run', pathSuffix: '/play' });
    expect(actionOf(job('success', { when: 'manual' }), true)).toMatchObject({ title: 'Run', icon: 'play' });
    expect(actionOf(job('failed'), true)).toMatchObject({ title: 'Run again', buttonTitle: 'Run this job again' });
    expect(actionOf(job('running'), true)).toMatchObject({ title: 'Cancel', buttonTitle: null, method: 'post' });
    expect(actionOf(job('created'), true)).toMatchObject({ pathSuffix: '/cancel' });
    expect(actionOf(job('skipped'), true)).toBeNull();
    expect(actionOf(job('canceled', { retried: true }), true)).toBeNull();
    for (const status of ['manual', 'failed', 'running'])
      expect(actionOf(job(status, { when: 'manual' }), false)).toBeNull();
    // A failure allowed to fail keeps the retry (FailedAllowed comes before Play in its group).
    expect(actionOf(job('failed', { when: 'manual', allowFailure: true }), true)).toMatchObject({ title: 'Run again' });
  });

  it('the badge: failures allowed to fail warn, manual jobs are play actions, not allowed without update_build', () => {
    expect(badgeOf(job('failed', { allowFailure: true }), true)).toEqual({
      group: 'failed_with_warnings',
      icon: 'status_warning',
      text: 'Failed',
      label: 'failed (allowed to fail)',
    });
    expect(badgeOf(job('failed'), true)).toEqual({
      group: 'failed',
      icon: 'status_failed',
      text: 'Failed',
      label: 'failed',
    });
    expect(badgeOf(job('manual', { when: 'manual' }), true).label).toBe('manual play action');
    expect(badgeOf(job('manual', { when: 'manual' }), false).label).toBe('manual play action (not allowed)');
    expect(badgeOf(job('failed', { when: 'manual', allowFailure: true }), false).label).toBe(
      'failed (allowed to fail) (not allowed)',
    );
    expect(badgeOf(job('success'), false)).toEqual({
      group: 'success',
      icon: 'status_success',
      text: 'Passed',
      label: 'passed',
    });
  });
});

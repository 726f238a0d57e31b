import type { RequestCtx } from '../../core/context/request-ctx';
import { AUDIT_CHANNEL } from '../../core/events/audit';
import { auditTargets } from '../../core/events/audit-targets';
import { liveIterator } from '../../core/events/live';
import { policy } from '../access';
import { Feature } from './feature.entity';

/** What Subscription.featureFlagChanged delivers: the flag as `features` returns it, or its deletion. */
export interface FeatureFlagChange {
  name: string;
  feature: Feature | null;
  deleted: boolean;
}

/**
 * Subscription.featureFlagChanged: fed by the audit events' commit NOTIFY (every gate change and every
 * deletion of a flag records an event with target Feature), each named flag loaded as it is now (one
 * query per notification per subscriber). Administrators only, like `features`.
 */
export function featureChanges(ctx: RequestCtx): Promise<AsyncIterableIterator<FeatureFlagChange>> {
  return liveIterator(ctx, AUDIT_CHANNEL, {
    async load(fresh, payload) {
      if (!policy.isAdmin(fresh.user)) return []; // demoted since subscribing: nothing to load
      const names = (await auditTargets(fresh.em, payload, 'Feature')).map((t) => t.targetId);
      if (names.length === 0) return [];
      const found = new Map((await fresh.em.find(Feature, { name: { $in: names } })).map((f) => [f.name, f]));
      return names.map((name) => ({ name, feature: found.get(name) ?? null, deleted: !found.has(name) }));
    },
    visible: async (fresh) => policy.isAdmin(fresh.user),
  });
}

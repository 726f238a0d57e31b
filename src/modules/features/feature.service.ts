import { LockMode } from '@mikro-orm/core';
import { changes, INSTANCE_SCOPE, recordAudit } from '../../core/events/audit';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import type { SharedCache } from '../../core/db/shared-cache';
import { ParamError } from '../../core/errors/domain-errors';
import { userService, type User } from '../users';
import { defaultEnabled } from './feature-definitions';
import { actorId, evaluateFeature, type GateValues } from './feature-gates';
import { featureGroups, inFeatureGroup } from './feature-groups';
import { checkFeatureName, checkKeyExclusive, parseGateValue, type GateChange } from './feature-value';
import { Feature } from './feature.entity';
import type { SetFeatureGateInput } from './feature.inputs';

/** One shared-cache key for every flag: the table is small and read on hot paths (core/db/shared-cache). */
export const FEATURES_CACHE_KEY = 'features';

type Target = { gate: 'actors' | 'groups'; value: string };

async function loadAll(em: EntityManager): Promise<ReadonlyMap<string, GateValues>> {
  const rows = await sqlRows<{
    name: string;
    boolean_value: boolean;
    actors: string[];
    groups: string[];
    percentage_of_actors: number;
    percentage_of_time: number;
  }>(em, 'select name, boolean_value, actors, groups, percentage_of_actors, percentage_of_time from features');
  return new Map(
    rows.map((r) => [
      r.name,
      {
        name: r.name,
        booleanValue: r.boolean_value,
        actors: r.actors,
        groups: r.groups,
        percentageOfActors: r.percentage_of_actors,
        percentageOfTime: r.percentage_of_time,
      },
    ]),
  );
}

/**
 * The most features GET /features and GraphQL `features` list (an unpaged list is
 * served up to a declared bound). Flags are created by administrators; GitLab itself has a few
 * hundred.
 */
export const FEATURES_MAX = 1000;

/** spec 4.35: every persisted feature, in storage order (up to FEATURES_MAX). */
function list(ctx: RequestCtx): Promise<Feature[]> {
  return ctx.em.find(Feature, {}, { orderBy: { id: 'asc' }, limit: FEATURES_MAX });
}

/** feature_group must be registered; user is a username (GitLab answered 500 for unknown ones; we say 400). */
async function resolveTargets(ctx: RequestCtx, input: SetFeatureGateInput): Promise<Target[]> {
  const targets: Target[] = [];
  if (input.featureGroup != null) {
    if (!featureGroups(ctx.env).has(input.featureGroup)) throw ParamError.notInSet('feature_group');
    targets.push({ gate: 'groups', value: input.featureGroup });
  }
  if (input.user != null) {
    const id = await userService.idByUsername(ctx, input.user);
    if (id === null) throw new ParamError(`user ${input.user} is not found`);
    targets.push({ gate: 'actors', value: actorId({ id }) });
  }
  return targets;
}

/** GitLab 10.3's POST /features/:name on Flipper's gates (spec 4.36; https://docs.gitlab.com/ee/api/features.html). */
function applyChange(f: Feature, change: GateChange, targets: Target[], key: string | undefined): void {
  if (change.kind === 'percentage') {
    if (key === 'percentage_of_actors') f.percentageOfActors = change.percentage;
    else f.percentageOfTime = change.percentage;
    return; // targets are ignored for percentages
  }
  if (targets.length === 0) {
    if (change.kind === 'enable')
      f.booleanValue = true; // other gates are kept
    else Object.assign(f, { booleanValue: false, actors: [], groups: [], percentageOfActors: 0, percentageOfTime: 0 }); // a plain false clears every gate
    return;
  }
  for (const t of targets) {
    const set = f[t.gate];
    if (change.kind === 'enable' && !set.includes(t.value)) f[t.gate] = [...set, t.value];
    if (change.kind === 'disable') f[t.gate] = set.filter((v) => v !== t.value);
  }
}

/** The gate values an audit event compares (feature_flag.<gate>: from → to). */
function gateSnapshot(f: Feature) {
  return {
    boolean: f.booleanValue,
    actors: [...f.actors].sort().join(', '),
    groups: [...f.groups].sort().join(', '),
    percentage_of_actors: f.percentageOfActors,
    percentage_of_time: f.percentageOfTime,
  };
}

/** spec 4.36: creates the feature when new, applies the change under a row lock, tells every instance. */
async function set(ctx: RequestCtx, name: string, input: SetFeatureGateInput): Promise<Feature> {
  checkKeyExclusive(input); // REST checks it as a parameter rule first (feature.rest.ts)
  checkFeatureName(name);
  const targets = await resolveTargets(ctx, input);
  const change = parseGateValue(input.value);
  const now = ctx.clock.now();
  return ctx.em.transactional(async (tx) => {
    await tx
      .getConnection()
      .execute(
        'insert into features (name, created_at, updated_at) values (?, ?, ?) on conflict (name) do nothing',
        [name, now, now],
        'run',
        tx.getTransactionContext(),
      );
    const f = await tx.findOneOrFail(Feature, { name }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const before = gateSnapshot(f);
    applyChange(f, change, targets, input.key);
    f.updatedAt = now;
    await tx.flush();
    await ctx.cache.invalidate(tx, FEATURES_CACHE_KEY);
    const after = gateSnapshot(f);
    await recordAudit(
      ctx,
      tx,
      changes(
        { ...INSTANCE_SCOPE, targetType: 'Feature', targetId: name, targetDetails: name },
        Object.keys(after).map((k) => ({
          name: `feature_flag.${k}`,
          from: before[k as keyof typeof before],
          to: after[k as keyof typeof after],
        })),
      ),
    );
    return f;
  });
}

/** Later GitLab's DELETE /features/:name: 204 whether or not it existed; the flag returns to its default. */
async function remove(ctx: RequestCtx, name: string): Promise<boolean> {
  checkFeatureName(name);
  await ctx.em.transactional(async (tx) => {
    const deleted = await tx
      .getConnection()
      .execute('delete from features where name = ? returning name', [name], 'all', tx.getTransactionContext());
    await ctx.cache.invalidate(tx, FEATURES_CACHE_KEY);
    if ((deleted as unknown[]).length > 0)
      await recordAudit(ctx, tx, [
        {
          ...INSTANCE_SCOPE,
          targetType: 'Feature',
          targetId: name,
          targetDetails: name,
          action: { remove: 'feature_flag' },
        },
      ]);
  });
  return true;
}

/** Every stored flag, from the shared cache (one query per process until a write anywhere forgets it). */
export function featureFlags(em: EntityManager, cache: SharedCache): Promise<ReadonlyMap<string, GateValues>> {
  return cache.get(FEATURES_CACHE_KEY, () => loadAll(em));
}

/**
 * The one evaluation function: is `name` on for this caller? Boolean, actors, groups, percentage of
 * actors (stable per user) and percentage of time (per call); an unset flag answers its default.
 * Reads the shared cache, so a hot path costs no query.
 */
export async function isFeatureEnabled(
  ctx: RequestCtx,
  name: string,
  opts: { user: Pick<User, 'id' | 'username'> | null },
): Promise<boolean> {
  const all = await featureFlags(ctx.em, ctx.cache);
  const groups = featureGroups(ctx.env);
  return evaluateFeature(all.get(name), defaultEnabled(name), {
    user: opts.user ? { id: opts.user.id, username: opts.user.username } : null,
    inGroup: (group, user) => inFeatureGroup(groups, group, user),
    random: Math.random,
  });
}

export const featureService = { list, set, remove, isEnabled: isFeatureEnabled };

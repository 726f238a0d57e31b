import { crc32 } from 'node:zlib';

/**
 * The gate values of one feature, as stored (Flipper's model, which GitLab's flags use): a boolean
 * gate, actors (`User:<id>`), groups (registered names), percentage of actors, percentage of time.
 */
export interface GateValues {
  name: string;
  booleanValue: boolean;
  actors: readonly string[];
  groups: readonly string[];
  percentageOfActors: number;
  percentageOfTime: number;
}

export type FeatureStateValue = 'on' | 'off' | 'conditional';
export type GateValue = boolean | number | string[];
export interface Gate {
  key: string;
  value: GateValue;
}

/** The caller a flag is evaluated for; null for anonymous requests and background work. */
export interface FeatureActor {
  id: number;
  username: string;
}

export const actorId = (user: { id: number }): string => `User:${user.id}`;

/** Flipper's gate kinds: `gatesOf` lists each at most once. */
export const GATE_KINDS = 5;

/**
 * spec 2.9 / GitLab's Entities::Feature: the boolean gate first, then only non-empty gates, in
 * Flipper's gate order (actors, percentage_of_actors, percentage_of_time, groups).
 */
export function gatesOf(f: GateValues): Gate[] {
  const gates: Gate[] = [{ key: 'boolean', value: f.booleanValue }];
  if (f.actors.length) gates.push({ key: 'actors', value: [...f.actors] });
  if (f.percentageOfActors) gates.push({ key: 'percentage_of_actors', value: f.percentageOfActors });
  if (f.percentageOfTime) gates.push({ key: 'percentage_of_time', value: f.percentageOfTime });
  if (f.groups.length) gates.push({ key: 'groups', value: [...f.groups] });
  return gates;
}

/** Flipper's state: on when fully on, conditional when any other gate is set, else off (spec 3). */
export function stateOf(f: GateValues): FeatureStateValue {
  if (f.booleanValue || f.percentageOfTime === 100) return 'on';
  if (f.actors.length || f.groups.length || f.percentageOfActors > 0 || f.percentageOfTime > 0) return 'conditional';
  return 'off';
}

/**
 * Flipper's percentage-of-actors gate: a stable hash of feature name + actor id, so one user keeps
 * the same answer for one flag, and raising the percentage only ever adds users.
 */
export function actorInPercentage(featureName: string, user: { id: number }, percentage: number): boolean {
  return crc32(`${featureName}${actorId(user)}`) % 100_000 < percentage * 1000;
}

export interface EvaluationEnv {
  user: FeatureActor | null;
  /** Whether the user belongs to a registered feature group. */
  inGroup: (group: string, user: FeatureActor) => boolean;
  /** A number in [0, 1) per call (Math.random in production). */
  random: () => number;
}

/** Whether any gate opens for this caller (Flipper's Feature#enabled?). */
export function gatesOpen(f: GateValues, env: EvaluationEnv): boolean {
  const { user } = env;
  if (f.booleanValue) return true;
  if (user && f.actors.includes(actorId(user))) return true;
  if (user && f.percentageOfActors > 0 && actorInPercentage(f.name, user, f.percentageOfActors)) return true;
  if (f.percentageOfTime > 0 && env.random() * 100 < f.percentageOfTime) return true;
  return !!user && f.groups.some((g) => env.inGroup(g, user));
}

/**
 * GitLab's Feature.enabled?(name, user, default_enabled:): a flag nobody has set (not persisted)
 * answers its default; once set, its gates decide.
 */
export function evaluateFeature(f: GateValues | undefined, defaultEnabled: boolean, env: EvaluationEnv): boolean {
  return f === undefined ? defaultEnabled : gatesOpen(f, env);
}

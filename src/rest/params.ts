import { ParamError } from '../core/errors/domain-errors';
import { coerceParam, type ParamSpec } from '../core/params/coerce';
import { ruleProblems } from './param-rules';
import type { ParamRule } from './route';

export interface RestInput {
  /** Coerced parameters by their GitLab (REST) names. */
  params: Record<string, unknown>;
  /** GraphQL variables for the route's root field. */
  variables: Record<string, unknown>;
}

const INVALID = Symbol('invalid parameter');

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = target;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
  cur[parts[parts.length - 1]] = value;
}

/**
 * GitLab parameter handling for one request: merge (query < body < path, as Rack/Grape do), coerce each
 * declared parameter, collect every problem in declaration order (Grape joins them with ", "), then map
 * to GraphQL variables. Undeclared parameters are ignored, as GitLab does.
 */
export function readParams(
  specs: Record<string, ParamSpec>,
  rules: readonly ParamRule[],
  query: Record<string, unknown>,
  body: Record<string, unknown>,
  path: Record<string, string>,
): RestInput {
  const merged: Record<string, unknown> = { ...query, ...body, ...path };
  const params: Record<string, unknown> = {};
  const problems: string[] = [];
  const sentInvalid: Record<string, unknown> = {};
  // Rules declared at a parameter (`at`) report where that parameter's own problems would be.
  const anchored = new Map<string, ParamRule[]>();
  for (const rule of rules) if (rule.at) anchored.set(rule.at, [...(anchored.get(rule.at) ?? []), rule]);
  const slots = new Map<ParamRule, number>();
  for (const [name, spec] of Object.entries(specs)) {
    for (const rule of anchored.get(name) ?? []) slots.set(rule, problems.length);
    const raw = merged[name];
    if (!present(raw)) {
      if (spec.required) problems.push(`${name} is missing`);
      continue;
    }
    if (spec.absence) {
      problems.push(`${name} ${spec.absence}`);
      continue;
    }
    try {
      params[name] = coerceParam(name, spec, raw);
      if (spec.allowBlank === false && typeof params[name] === 'string' && (params[name] as string).trim() === '') problems.push(`${name} is empty`);
    } catch (e) {
      if (e instanceof ParamError) {
        problems.push(e.message);
        sentInvalid[name] = INVALID;
      } else throw e;
    }
  }
  // An invalid value was still sent: Grape's presence rules (at_least_one_of, requires) count it.
  const values = { ...sentInvalid, ...params };
  // Latest slot first, so earlier slots stay valid; rules sharing a slot keep their declaration order.
  // Ties (anchors whose parameters had no problems): the later anchor first, then the later rule.
  const position = new Map(Object.keys(specs).map((name, i) => [name, i]));
  const placed = rules.map((rule, i) => ({ rule, i, at: position.get(rule.at ?? '') ?? -1 })).filter(({ rule }) => slots.has(rule))
    .sort((a, b) => slots.get(b.rule)! - slots.get(a.rule)! || b.at - a.at || b.i - a.i);
  for (const { rule } of placed) problems.splice(slots.get(rule)!, 0, ...ruleProblems([rule], values));
  problems.push(...ruleProblems(rules.filter((r) => !slots.has(r)), values));
  if (problems.length) throw new ParamError(problems.join(', '));
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    const arg = specs[name].arg ?? '-';
    if (arg !== '-') setPath(variables, arg, value);
  }
  return { params, variables };
}

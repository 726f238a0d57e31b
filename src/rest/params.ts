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

function setPath(target: Record<string, unknown>, parts: readonly string[], value: unknown): void {
  let cur = target;
  for (let i = 0; i < parts.length - 1; i += 1) cur = (cur[parts[i]] ??= {}) as Record<string, unknown>;
  cur[parts[parts.length - 1]] = value;
}

/** A route's parameters in declaration order, with each GraphQL argument path split once (per route, not per request). */
interface SpecList {
  entries: [string, ParamSpec][];
  targets: { name: string; spec: ParamSpec; path: string[] }[];
}
const specLists = new WeakMap<Record<string, ParamSpec>, SpecList>();
function specListOf(specs: Record<string, ParamSpec>): SpecList {
  let list = specLists.get(specs);
  if (!list) {
    const entries = Object.entries(specs);
    const targets = entries
      .filter(([, spec]) => (spec.arg ?? '-') !== '-')
      .map(([name, spec]) => ({ name, spec, path: (spec.arg as string).split('.') }));
    specLists.set(specs, (list = { entries, targets }));
  }
  return list;
}

const isEmpty = (o: Record<string, unknown>) => {
  for (const _ in o) return false;
  return true;
};

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
  // Most requests send only a query string (a GET without path parameters): read it as it is.
  const merged: Record<string, unknown> = isEmpty(body) && isEmpty(path) ? query : { ...query, ...body, ...path };
  const { entries, targets } = specListOf(specs);
  const params: Record<string, unknown> = {};
  // Each parameter's own problems (only those with one); the rules are checked once every value is read.
  const own = new Map<string, string[]>();
  const report = (name: string, problem: string) => own.set(name, [...(own.get(name) ?? []), problem]);
  const sentInvalid: Record<string, unknown> = {};
  for (const [name, spec] of entries) {
    const raw = merged[name];
    if (!present(raw)) {
      if (spec.required) report(name, `${name} is missing`);
      continue;
    }
    if (spec.absence) {
      report(name, `${name} ${spec.absence}`);
      continue;
    }
    try {
      params[name] = coerceParam(name, spec, raw);
      if (spec.allowBlank === false && typeof params[name] === 'string' && (params[name] as string).trim() === '')
        report(name, `${name} is empty`);
    } catch (e) {
      if (e instanceof ParamError) {
        report(name, e.message);
        sentInvalid[name] = INVALID;
      } else throw e;
    }
  }
  // An invalid value was still sent: Grape's presence rules (at_least_one_of, requires) count it.
  const values = { ...sentInvalid, ...params };
  // In declaration order; a rule declared at a parameter (`at`) reports just before that parameter's
  // own problems, the others after all of them.
  const anchored = rules.filter((r) => r.at !== undefined && r.at in specs);
  const problems: string[] = [];
  if (own.size > 0 || anchored.length > 0) {
    for (const name of Object.keys(specs)) {
      if (anchored.length)
        problems.push(
          ...ruleProblems(
            anchored.filter((r) => r.at === name),
            values,
          ),
        );
      problems.push(...(own.get(name) ?? []));
    }
  }
  problems.push(...ruleProblems(anchored.length ? rules.filter((r) => !anchored.includes(r)) : rules, values));
  if (problems.length) throw new ParamError(problems.join(', '));
  const variables: Record<string, unknown> = {};
  for (const { name, spec, path: argPath } of targets) {
    if (name in params) setPath(variables, argPath, params[name]);
    else if (spec.restDefault !== undefined) setPath(variables, argPath, spec.restDefault);
  }
  return { params, variables };
}

import type { ParamRule } from './route';

const given = (v: unknown) => v !== undefined && v !== null;

/** Problems of Grape's cross-parameter rules, in declaration order (GitLab joins them with ", "). */
export function ruleProblems(rules: readonly ParamRule[], params: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const rule of rules) {
    if ('atLeastOneOf' in rule) {
      const names = rule.atLeastOneOf;
      // 'input' is resolved when the route is compiled (rest/derive-params.ts: deriveRules).
      if (!Array.isArray(names)) throw new Error('atLeastOneOf: input is resolved by deriveRules');
      if (!names.some((n) => given(params[n])))
        problems.push(`${names.join(', ')} are missing, at least one parameter must be provided`);
    } else if ('mutuallyExclusive' in rule) {
      const sent = rule.mutuallyExclusive.filter((n) => given(params[n]));
      if (sent.length > 1) problems.push(`${sent.join(', ')} are mutually exclusive`);
    } else if ('allOrNoneOf' in rule) {
      const sent = rule.allOrNoneOf.filter((n) => given(params[n]));
      if (sent.length > 0 && sent.length < rule.allOrNoneOf.length)
        problems.push(`${rule.allOrNoneOf.join(', ')} provide all or none of parameters`);
    } else if (params[rule.given] === (rule.is ?? true)) {
      for (const n of rule.requires)
        if (!given(params[n]) && !(rule.aliases?.[n] ?? []).some((a) => given(params[a])))
          problems.push(`${n} is missing`);
    }
  }
  return problems;
}

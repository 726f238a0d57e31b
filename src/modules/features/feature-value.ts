import { ParamError } from '../../core/errors/domain-errors';

/** What POST /features/:name does with `value` (spec 4.36, GitLab 10.3's gate_value). */
export type GateChange = { kind: 'enable' } | { kind: 'disable' } | { kind: 'percentage'; percentage: number };

/** Ruby's String#to_i: leading whitespace, optional sign, digits with `_` separators; no digits → 0. */
export function rubyToI(s: string): number {
  const m = /^\s*([-+]?\d+(?:_\d+)*)/.exec(s);
  return m ? Number.parseInt(m[1].replace(/_/g, ''), 10) : 0;
}

/**
 * Case-sensitive, as GitLab: `true` enables; `false` and `0` disable; anything else is an integer
 * percentage by Ruby's to_i (`50`, `12x` → 12, `abc` → 0, and `1` is a 1 % rollout, not "on").
 * Where GitLab's flag library raised (500) for a percentage outside 0–100, this answers 400.
 */
export function parseGateValue(value: string): GateChange {
  if (value === 'true') return { kind: 'enable' };
  if (value === 'false' || value === '0') return { kind: 'disable' };
  const percentage = rubyToI(value);
  if (percentage < 0 || percentage > 100)
    throw new ParamError('value must be true, false or a percentage between 0 and 100');
  return { kind: 'percentage', percentage };
}

/** Later GitLab: `key` goes with a percentage only, never with a target (Grape mutually_exclusive). */
export const KEY_EXCLUSIVE_WITH = ['feature_group', 'user'] as const;

export function checkKeyExclusive(input: {
  key?: string | null;
  featureGroup?: string | null;
  user?: string | null;
}): void {
  if (input.key == null) return;
  const sent = { feature_group: input.featureGroup, user: input.user };
  const clashes = KEY_EXCLUSIVE_WITH.filter((p) => sent[p] != null);
  if (clashes.length) throw new ParamError(clashes.map((p) => `key, ${p} are mutually exclusive`).join(', '));
}

// Later GitLab's rule for flag names; also keeps names safe as cache keys and path segments.
const NAME = /^[A-Za-z0-9_]{1,255}$/;

export function checkFeatureName(name: string): void {
  if (!NAME.test(name)) throw ParamError.invalid('name');
}

import type { KeyObject } from 'node:crypto';
import type { RequestCtx } from '../../core/context/request-ctx';
import { sqlRows } from '../../core/db/sql';
import { FieldErrorBag } from '../../core/errors/field-error-bag';
import { MSG } from '../../core/errors/messages';
import {
  CERTIFICATE_CAPS,
  chainVerifies,
  keyMatches,
  parseBundle,
  parsePrivateKey,
  type BundleProblem,
  type ParsedCertificate,
} from './pages-certificate';
import { pagesConfig } from './pages-config';
import { longerThan, shorterThan } from '../../core/validation/char-length';

/** Messages of GitLab 10.3's hostname validator and PagesDomain model (spec 4.27). */
export const PAGES_MSG = {
  hostLength: 'must be between 1 and 255 characters long',
  labelLength: 'must be between 1 and 63 characters long',
  hyphen: 'begins or ends with hyphen',
  characters: 'contains invalid characters (valid characters: [a-z0-9\\-])',
  numeric: 'unqualified hostname part cannot consist of numeric values only',
  dots: 'must not contain consecutive dots',
  endDot: 'must not end with a dot',
  certificate: 'must be a valid PEM certificate',
  key: 'must be a valid PEM private key',
  mismatch: "doesn't match the certificate",
  intermediates: 'misses intermediates',
  restricted: (host: string) => `*.${host} is restricted`,
  // Our caps (GitLab 10.3 has none); Rails' length message where one applies.
  tooLong: (max: number) => `is too long (maximum is ${max} characters)`,
  tooMany: (max: number) => `has too many certificates (maximum is ${max})`,
  tooDeep: (max: number) => `is nested too deeply (maximum ASN.1 depth is ${max})`,
} as const;

const BUNDLE_MSG: Record<BundleProblem, string> = {
  invalid: PAGES_MSG.certificate,
  tooLong: PAGES_MSG.tooLong(CERTIFICATE_CAPS.pemLength),
  tooMany: PAGES_MSG.tooMany(CERTIFICATE_CAPS.certificates),
  tooDeep: PAGES_MSG.tooDeep(CERTIFICATE_CAPS.depth),
};

/** The hostname rules in the validator's order; one message per failing label, as it reports them. */
export function hostnameErrors(value: string): string[] {
  const out: string[] = [];
  if (shorterThan(value, 1) || longerThan(value, 255)) out.push(PAGES_MSG.hostLength);
  const labels = value.split('.');
  while (labels.length && labels[labels.length - 1] === '') labels.pop(); // Ruby's split drops trailing empties
  for (const label of labels) {
    if (shorterThan(label, 1) || longerThan(label, 63)) out.push(PAGES_MSG.labelLength);
    if (label.startsWith('-') || label.endsWith('-')) out.push(PAGES_MSG.hyphen);
    if (!/^[a-z0-9-]+$/i.test(label)) out.push(PAGES_MSG.characters);
  }
  if (labels.length > 0 && /^\d+$/.test(labels[0])) out.push(PAGES_MSG.numeric);
  if (value.includes('..')) out.push(PAGES_MSG.dots);
  if (value.endsWith('.')) out.push(PAGES_MSG.endDot);
  return out;
}

export interface DomainDraft {
  id: number | undefined;
  domain: string;
  certificate: string | null;
  key: string | null;
}

/** What the validation learnt about the certificate (kept for storage). */
export interface ParsedPair {
  leaf: ParsedCertificate | null;
  key: KeyObject | null;
}

const present = (v: string | null): v is string => v !== null && v.trim() !== '';

/**
 * GitLab's PagesDomain validations in their order: 400 {"message":{...}} when the bag is not empty.
 * A field over one of our caps gets only that message: the match and chain rules are not run on it.
 */
export async function validatePagesDomain(
  ctx: RequestCtx,
  d: DomainDraft,
): Promise<{ bag: FieldErrorBag; parsed: ParsedPair }> {
  const bag = new FieldErrorBag();
  for (const msg of hostnameErrors(d.domain)) bag.add('domain', msg);
  const taken = await sqlRows(
    ctx.em,
    'select 1 from pages_domains where lower(domain) = lower(?) and id <> ? limit 1',
    [d.domain, d.id ?? 0],
  );
  if (taken.length) bag.add('domain', MSG.taken);
  const bundle = present(d.certificate) ? parseBundle(d.certificate) : null;
  const certs = bundle && 'certs' in bundle ? bundle.certs : null;
  if (bundle && 'problem' in bundle) bag.add('certificate', BUNDLE_MSG[bundle.problem]);
  const keyTooLong = present(d.key) && d.key.length > CERTIFICATE_CAPS.keyLength;
  const key = present(d.key) && !keyTooLong ? parsePrivateKey(d.key) : null;
  if (keyTooLong) bag.add('key', PAGES_MSG.tooLong(CERTIFICATE_CAPS.keyLength));
  else if (present(d.key) && !key) bag.add('key', PAGES_MSG.key);
  const host = pagesConfig(ctx.env).host;
  if (d.domain.toLowerCase().endsWith(host.toLowerCase())) bag.add('domain', PAGES_MSG.restricted(host));
  const capped = keyTooLong || (bundle !== null && 'problem' in bundle && bundle.problem !== 'invalid');
  const leaf = certs?.[0] ?? null;
  if (!capped && (present(d.certificate) || present(d.key)) && !(leaf && key && keyMatches(leaf, key)))
    bag.add('key', PAGES_MSG.mismatch);
  if (!capped && present(d.certificate) && !(certs && chainVerifies(certs, ctx.clock.now())))
    bag.add('certificate', PAGES_MSG.intermediates);
  return { bag, parsed: { leaf, key } };
}

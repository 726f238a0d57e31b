import qs from 'qs';

/** qs with a high arrayLimit: `a[]=…` lists longer than 20 items stay arrays (docs/gitlab-compatibility.md, "Parameters"). */
const QS_OPTIONS = { arrayLimit: 1000, depth: 5, parameterLimit: 10000 };

/** What qs can make of a query string that a flat reading would not: brackets, raw or percent-encoded. */
const NESTED = /[[\]]|%5[bBdD]/;

/** As qs decodes: `+` is a space, then percent-decoding; text that does not decode stays as it is. */
function decode(s: string): string {
  const text = s.indexOf('+') < 0 ? s : s.replace(/\+/g, ' ');
  if (text.indexOf('%') < 0) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The app's query parser: exactly `qs.parse(s, QS_OPTIONS)` (test/unit/query-parser.unit.test.ts
 * compares the two), read directly when the string is flat (no brackets, no key twice, no key that
 * names an Object.prototype member, at most 100 pairs): qs's general parser is a visible share of a REST
 * list request's CPU. Anything else goes to qs.
 */
export function parseQuery(s: string | null | undefined): Record<string, unknown> {
  // express hands over null when the URL has no query string
  if (!s) return {};
  if (s.length > 8192 || NESTED.test(s)) return qs.parse(s, QS_OPTIONS);
  const parts = s.split('&');
  if (parts.length > 100) return qs.parse(s, QS_OPTIONS);
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    if (key === '') continue;
    if (key in Object.prototype || Object.prototype.hasOwnProperty.call(out, key)) return qs.parse(s, QS_OPTIONS);
    out[key] = eq < 0 ? '' : decode(part.slice(eq + 1));
  }
  return out;
}

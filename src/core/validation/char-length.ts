/**
 * Lengths as GitLab counts them: Rails' `length` validations count characters (Unicode code points,
 * Ruby's `String#length`), as PostgreSQL's `varchar(n)` does; a JavaScript string's `length` counts
 * UTF-16 units, two for an emoji. So 255 emoji fit a 255-character column, and a password of four emoji
 * is four characters, too short (docs/gitlab-compatibility.md, "Lengths").
 */
export function charLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n -= 1;
        i += 1;
      }
    }
  }
  return n;
}

/** More than `max` characters (counted only when the UTF-16 length says it may be). */
export function longerThan(s: string, max: number): boolean {
  return s.length > max && charLength(s) > max;
}

/** Fewer than `min` characters. */
export function shorterThan(s: string, min: number): boolean {
  return s.length < min || charLength(s) < min;
}

/**
 * The first `max` characters of `s`, never half of a surrogate pair (a lone half is not encodable:
 * json/jsonb refuse `\ud83d`): for text cut to fit, such as an audit event's target details.
 */
export function cutToChars(s: string, max: number): string {
  if (!longerThan(s, max)) return s;
  let end = 0;
  for (let n = 0; n < max; n += 1) {
    const c = s.charCodeAt(end);
    end +=
      c >= 0xd800 &&
      c <= 0xdbff &&
      end + 1 < s.length &&
      s.charCodeAt(end + 1) >= 0xdc00 &&
      s.charCodeAt(end + 1) <= 0xdfff
        ? 2
        : 1;
  }
  return s.slice(0, end);
}

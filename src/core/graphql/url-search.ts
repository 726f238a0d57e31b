/** The URL's query string with its `?` (what `url.parse(url).search` gives, '' for none). */
export function searchOf(url: string): string {
  const hash = url.indexOf('#');
  const path = hash < 0 ? url : url.slice(0, hash);
  const q = path.indexOf('?');
  return q < 0 ? '' : path.slice(q);
}

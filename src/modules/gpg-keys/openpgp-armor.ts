/**
 * ASCII armor of an OpenPGP public key block (RFC 4880 §6): what GitLab hands to gpgme, read here
 * without gpg. Iterative, one pass over the lines, no regular expression that can backtrack; the
 * caller bounds the input length (gpg-key.service.ts).
 */
export const ARMOR_BEGIN = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
export const ARMOR_END = '-----END PGP PUBLIC KEY BLOCK-----';

const CRC24_INIT = 0xb704ce;
const CRC24_POLY = 0x1864cfb;
const CRC24_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 16;
    for (let bit = 0; bit < 8; bit++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= CRC24_POLY;
    }
    table[i] = crc & 0xffffff;
  }
  return table;
})();

/** RFC 4880 §6.1, table-driven. */
export function crc24(data: Uint8Array): number {
  let crc = CRC24_INIT;
  for (let i = 0; i < data.length; i++) crc = ((crc << 8) ^ CRC24_TABLE[((crc >> 16) ^ data[i]) & 0xff]) & 0xffffff;
  return crc;
}

/**
 * GitLab 10.3's GpgKey format rule: the key begins with the BEGIN line and ends with the END line,
 * with at least one character between and neither line inside (`\A…((?!BEGIN)(?!END).)+…\Z`, /m).
 * Called on the stripped key, so Ruby's `\Z` (end, or before a final newline) is the end: no line may
 * start inside the middle part, even one that runs into the final END line.
 */
export function hasArmorFormat(key: string): boolean {
  const end = key.length - ARMOR_END.length;
  if (end <= ARMOR_BEGIN.length || !key.startsWith(ARMOR_BEGIN)) return false;
  return key.indexOf(ARMOR_END, ARMOR_BEGIN.length) === end && !key.includes(ARMOR_BEGIN, ARMOR_BEGIN.length);
}

/** Trailing spaces and tabs off (a loop: `/[ \t]+$/` is quadratic on a long run of blanks before other text). */
function trimBlanksEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return end === line.length ? line : line.slice(0, end);
}

const BASE64_LINE = /^[A-Za-z0-9+/]*={0,2}$/;
const CHECKSUM_LINE = /^=([A-Za-z0-9+/]{4})$/;
// An armor header ("Version: GnuPG v2", "Comment: …"): a key without blanks or colons, ": ", a value.
const HEADER_LINE = /^[!-9;-~]+: /;

/**
 * The binary content of an armored public key block, or null when it is not one: first and last lines
 * BEGIN/END, armor headers, a blank line, base64 lines, an optional `=` CRC-24 line that must match
 * (gpg: "CRC error"), nothing else. Trailing blanks of a line are ignored (RFC 4880 §6.2).
 */
export function dearmor(text: string): Buffer | null {
  const lines = text.split(/\r\n|\n|\r/).map(trimBlanksEnd);
  const last = lines.length - 1;
  if (last < 2 || lines[0] !== ARMOR_BEGIN || lines[last] !== ARMOR_END) return null;
  let i = 1;
  while (i < last && HEADER_LINE.test(lines[i])) i++;
  while (i < last && lines[i] === '') i++;
  const data: string[] = [];
  let padded = false;
  for (; i < last && !lines[i].startsWith('='); i++) {
    const line = lines[i];
    // Padding ends the data: a line after a padded one is not base64 of the same block.
    if (padded || !BASE64_LINE.test(line)) return null;
    padded = line.endsWith('=');
    data.push(line);
  }
  let checksum: Buffer | undefined;
  if (i < last) {
    const m = CHECKSUM_LINE.exec(lines[i]);
    if (!m) return null;
    checksum = Buffer.from(m[1], 'base64');
    i++;
  }
  for (; i < last; i++) if (lines[i] !== '') return null;
  const body = data.join('');
  const unpadded = body.endsWith('==') ? body.length - 2 : body.endsWith('=') ? body.length - 1 : body.length;
  if (unpadded === 0 || unpadded % 4 === 1) return null;
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length === 0) return null;
  if (checksum && checksum.readUIntBE(0, 3) !== crc24(bytes)) return null;
  return bytes;
}

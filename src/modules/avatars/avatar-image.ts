/**
 * What GitLab 10.3 accepts as an avatar (app/models/concerns/avatarable.rb, app/uploaders/avatar_uploader.rb):
 * at most 200 KB (`is too big (should be at most 200 KB)`) and an image by its file name's extension
 * (`only images allowed`; png jpg jpeg gif bmp tiff ico). We also require the bytes to be such an image
 * (its magic numbers and header), and serve it with the type its bytes say, never the client's: an SVG,
 * HTML or script renamed `avatar.png` is refused, and no stored avatar is ever anything but a raster image.
 */
export const AVATAR_MAX_BYTES = 200 * 1024;
export const AVATAR_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico'] as const;

export const MSG_AVATAR_TOO_BIG = 'is too big (should be at most 200 KB)';
export const MSG_AVATAR_NOT_IMAGE = 'only images allowed';

/** The raster types an avatar may be, by the content type they are served with. */
export const AVATAR_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/bmp',
  'image/tiff',
  'image/x-icon',
] as const;
export type AvatarContentType = (typeof AVATAR_CONTENT_TYPES)[number];

const startsWith = (b: Buffer, bytes: readonly number[], at = 0) =>
  b.length >= at + bytes.length && bytes.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** The first chunk of a PNG is IHDR, 13 bytes long. */
const PNG_IHDR = [0, 0, 0, 13, ...ascii('IHDR')];
const BMP_DIB_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

/** The image type of these bytes, by their signature and header, or null when they are not one of the avatar types. */
export function sniffImage(b: Buffer): AvatarContentType | null {
  if (startsWith(b, PNG) && startsWith(b, PNG_IHDR, 8)) return 'image/png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(b, ascii('BM')) && b.length >= 26 && BMP_DIB_SIZES.has(b.readUInt32LE(14))) return 'image/bmp';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(b, [0, 0, 1, 0]) && b.length >= 6) {
    const count = b.readUInt16LE(4);
    if (count > 0 && b.length >= 6 + 16 * count) return 'image/x-icon';
  }
  return null;
}

/**
 * CarrierWave's file name rule (basename, then anything but letters, digits, `.`, `-`, `+`, `_`
 * becomes `_`), at most 255 characters: the name is only a URL segment and a Content-Disposition
 * value, never a path.
 */
export function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[^a-zA-Z0-9.\-+_]/g, '_');
  return clean.length > 255 ? clean.slice(clean.length - 255) : clean;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export interface CheckedAvatar {
  filename: string;
  contentType: AvatarContentType;
  data: Buffer;
}

/** GitLab's avatar validation messages for this file, in its order (type, then size); empty when it is acceptable. */
export function avatarProblems(filename: string, data: Buffer): string[] {
  const problems: string[] = [];
  const ext = extensionOf(sanitizeFilename(filename));
  if (!(AVATAR_EXTENSIONS as readonly string[]).includes(ext) || sniffImage(data) === null)
    problems.push(MSG_AVATAR_NOT_IMAGE);
  if (data.length > AVATAR_MAX_BYTES) problems.push(MSG_AVATAR_TOO_BIG);
  return problems;
}

import { avatarProblems, sanitizeFilename, sniffImage } from '../../src/modules/avatars/avatar-image';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const le32 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255, (n >> 24) & 255];

describe('sniffImage', () => {
  it('knows the avatar types by their signature and header', () => {
    expect(sniffImage(bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR', Array(17).fill(0)))).toBe('image/png');
    expect(sniffImage(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))).toBe('image/jpeg');
    expect(sniffImage(bytes('GIF87a', [1, 0, 1, 0]))).toBe('image/gif');
    expect(sniffImage(bytes('BM', le32(90), [0, 0, 0, 0], le32(54), le32(40), Array(8).fill(0)))).toBe('image/bmp');
    expect(sniffImage(bytes('II*\0', le32(8)))).toBe('image/tiff');
    expect(sniffImage(bytes('MM\0*', [0, 0, 0, 8]))).toBe('image/tiff');
    expect(sniffImage(bytes([0, 0, 1, 0, 1, 0], Array(16).fill(0)))).toBe('image/x-icon');
  });

  it('refuses everything else, including truncated headers', () => {
    for (const b of [
      bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytes('<?xml version="1.0"?><svg/>'),
      bytes('<html><body>x</body></html>'),
      bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IDAT'), // no IHDR first
      bytes([0x89], 'PNG\r\n\x1a\n'),
      bytes('BM', le32(90), [0, 0, 0, 0], le32(54), le32(7)), // unknown DIB header size
      bytes([0, 0, 1, 0, 2, 0], Array(16).fill(0)), // icon directory shorter than its count
      bytes([0, 0, 2, 0, 1, 0], Array(16).fill(0)), // a cursor
      bytes('%PDF-1.4'),
      Buffer.alloc(0),
    ])
      expect(sniffImage(b)).toBeNull();
  });
});

describe('sanitizeFilename and avatarProblems', () => {
  it('keeps a base name of safe characters only', () => {
    expect(sanitizeFilename('../../etc/passwd.png')).toBe('passwd.png');
    expect(sanitizeFilename('C:\\Users\\me\\my face (1).JPG')).toBe('my_face__1_.JPG');
    expect(sanitizeFilename('a"b;c\r\nd<e>.png')).toBe('a_b_c__d_e_.png');
    expect(sanitizeFilename(`${'x'.repeat(300)}.png`)).toHaveLength(255);
  });

  it("answers GitLab's messages in its order", () => {
    const gif = bytes('GIF89a', [1, 0, 1, 0]);
    expect(avatarProblems('a.GIF', gif)).toEqual([]);
    expect(avatarProblems('a.jpeg', gif)).toEqual([]);
    expect(avatarProblems('a.svg', gif)).toEqual(['only images allowed']);
    expect(avatarProblems('a.png', Buffer.concat([gif, Buffer.alloc(200 * 1024)]))).toEqual([
      'is too big (should be at most 200 KB)',
    ]);
    expect(avatarProblems('a.png', Buffer.alloc(200 * 1024 + 1))).toEqual([
      'only images allowed',
      'is too big (should be at most 200 KB)',
    ]);
  });
});

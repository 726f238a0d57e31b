import { GraphQLScalarType, Kind } from 'graphql';
import { UploadedFile } from '../http/uploaded-file';

/** `data:<media type>;base64,<bytes>`: how a GraphQL client sends a file in JSON variables. */
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[\w.+-]+)*;base64,([A-Za-z0-9+/]*={0,2})$/;
const EXTENSION: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
};

function fromDataUrl(value: string): UploadedFile {
  const m = DATA_URL.exec(value);
  if (!m) throw new TypeError('Upload must be a data URL: data:<media type>;base64,<content>');
  const type = (m[1] ?? 'application/octet-stream').toLowerCase();
  // The name only carries the extension GitLab's whitelist checks; the content is checked by its bytes.
  const ext = EXTENSION[type];
  return new UploadedFile(ext ? `upload.${ext}` : 'upload', type, Buffer.from(m[2], 'base64'));
}

/**
 * A file argument. The REST surface passes the multipart file part itself (in process); a GraphQL
 * request over HTTP sends a base64 `data:` URL string (the /graphql body limit bounds it). Never
 * serialized: no field returns an Upload.
 */
export const UploadScalar = new GraphQLScalarType({
  name: 'Upload',
  description:
    'A file: on GraphQL a base64 data URL (`data:image/png;base64,iVBORw0…`); on REST a multipart file part.',
  serialize() {
    throw new TypeError('Upload is an input-only scalar');
  },
  parseValue(value: unknown): UploadedFile {
    if (value instanceof UploadedFile) return value;
    if (typeof value === 'string') return fromDataUrl(value);
    throw new TypeError('Upload must be a data URL string');
  },
  parseLiteral(ast): UploadedFile {
    if (ast.kind !== Kind.STRING) throw new TypeError('Upload must be a data URL string');
    return fromDataUrl(ast.value);
  },
});

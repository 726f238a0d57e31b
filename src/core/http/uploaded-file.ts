/**
 * A multipart file part a route declared (rest/body-parsers.ts), as the request body carries it to the
 * parameter coercers. Only the multipart parser creates these: JSON, form and query values are plain
 * strings and objects, so a parameter of type `file` (GitLab's Grape `type: File`) cannot be forged by
 * sending a string or a hash.
 */
export class UploadedFile {
  constructor(
    /** The client's file name, as sent (never used as a path). */
    readonly filename: string,
    /** The part's Content-Type as the client declared it (not trusted: content is checked by its bytes). */
    readonly declaredType: string,
    readonly data: Buffer,
  ) {}

  get size(): number {
    return this.data.length;
  }

  /** Text routes (pages certificates and keys) read a file part as its UTF-8 text. */
  text(): string {
    return this.data.toString('utf8');
  }
}

/**
 * Which keys an ImageStore takes: ours only ("jobs/<id>/result.png"), lower-case letters, digits
 * and `/_.-`, slash-separated segments that are neither empty nor "." nor "..". Both adapters check
 * it, so a key that works on disk works on S3 and cannot climb out of the store's root. A bad key
 * is a programming error, not a user's: a plain RangeError.
 */
const KEY = /^[a-z0-9/_.-]+$/;
const MAX_KEY_LENGTH = 512;

export function assertImageKey(key: string): void {
  const ok = key.length <= MAX_KEY_LENGTH && KEY.test(key) && !key.includes('..') && key.split('/').every((segment) => segment !== '' && segment !== '.');
  if (!ok) throw new RangeError(`Invalid image store key: ${JSON.stringify(key.slice(0, 80))}`);
}

/** A MIME type without line breaks, as the file store writes it into its header line. */
const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;[\x20-\x7e]*)?$/i;

export function assertContentType(contentType: string): void {
  if (contentType.length > 200 || !CONTENT_TYPE.test(contentType)) throw new RangeError(`Invalid content type: ${JSON.stringify(contentType.slice(0, 80))}`);
}

/**
 * Where inputs and results live (the filesystem under DATA_DIR/images, or S3-compatible storage
 * shared by several machines). Keys are ours ("jobs/<id>/input", "jobs/<id>/result.png"), never a
 * user's text.
 */
export abstract class ImageStore {
  abstract put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Null when there is no such object (deleted, expired). */
  abstract get(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
  abstract delete(key: string): Promise<void>;
}

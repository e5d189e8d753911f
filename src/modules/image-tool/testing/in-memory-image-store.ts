import { ImageStore } from '../domain/image-store.port';

/** Files as a map, for unit specs (test/image-store.int-spec.ts proves the real stores). */
export class InMemoryImageStore extends ImageStore {
  readonly files = new Map<string, { bytes: Buffer; contentType: string }>();
  async put(key: string, bytes: Buffer, contentType: string) {
    this.files.set(key, { bytes, contentType });
  }
  async get(key: string) {
    return this.files.get(key) ?? null;
  }
  async delete(key: string) {
    this.files.delete(key);
  }
}

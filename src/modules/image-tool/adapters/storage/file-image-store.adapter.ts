import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { ImageStore } from 'src/modules/image-tool/domain/image-store.port';
import { assertContentType, assertImageKey } from './image-key.policy';

/** The first line of every stored file: this tag, a space, the content type, a line feed; the bytes follow. */
const HEADER_TAG = 'imgstore/1 ';
const MAX_HEADER = HEADER_TAG.length + 201;
/** Temporary files carry "~", which no key can: they never shadow an object. */
const TEMP_MARK = '~';

/**
 * Objects as files under one root (DATA_DIR/images by default), one file per key at
 * `<root>/<key>`. The content type travels inside the file, in a one-line header before the bytes,
 * rather than in a sidecar: one file is one atomic rename (written to a temporary name, synced,
 * then renamed over the key), so a reader never sees bytes without their type or a type without
 * bytes, and deleting an object is one unlink. Files are private to the process user.
 */
export class FileImageStore extends ImageStore {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertContentType(contentType);
    const path = this.pathOf(key);
    const temp = `${path}.${TEMP_MARK}${randomBytes(6).toString('hex')}`;
    // A sweep may remove the (empty) directory between mkdir and open: make it again, once.
    const file = await this.createFile(temp).catch(async (error: unknown) => {
      if (errorCode(error) !== 'ENOENT') throw error;
      return this.createFile(temp);
    });
    try {
      await file.writeFile(Buffer.concat([Buffer.from(`${HEADER_TAG}${contentType}\n`, 'latin1'), bytes]));
      await file.datasync();
    } catch (error) {
      await file.close();
      await rm(temp, { force: true });
      throw error;
    }
    await file.close();
    await rename(temp, path).catch(async (error: unknown) => {
      await rm(temp, { force: true });
      throw error;
    });
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const path = this.pathOf(key);
    let raw: Buffer;
    try {
      raw = await readFile(path);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const newline = raw.subarray(0, MAX_HEADER).indexOf(0x0a);
    const header = newline > 0 ? raw.subarray(0, newline).toString('latin1') : '';
    if (!header.startsWith(HEADER_TAG)) throw new Error(`Not an image store file: ${path}`);
    return { bytes: raw.subarray(newline + 1), contentType: header.slice(HEADER_TAG.length) };
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    await this.removeEmptyParents(dirname(path));
  }

  private async createFile(path: string) {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    return open(path, 'wx', 0o600);
  }

  private async removeEmptyParents(dir: string): Promise<void> {
    while (dir !== this.root && dir.startsWith(this.root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty, or already gone
      }
      dir = dirname(dir);
    }
  }

  private pathOf(key: string): string {
    assertImageKey(key);
    const path = resolve(this.root, key);
    // The key rules already forbid it; this is the second lock on the same door.
    const inside = relative(this.root, path);
    if (!inside || inside.startsWith('..') || resolve(this.root, inside) !== path) throw new RangeError(`Key escapes the store: ${key}`);
    return path;
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileImageStore } from 'src/modules/image-tool/adapters/storage/file-image-store.adapter';
import { S3ImageStore } from 'src/modules/image-tool/adapters/storage/s3-image-store.adapter';

// s3rver ships no types: the part of it this test uses.
interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: { address: string; port: number; silent: boolean; directory: string }) => S3rverInstance;
const S3rver = createRequire(__filename)('s3rver') as S3rverClass;

type Store = FileImageStore | S3ImageStore;

interface Harness {
  store: Store;
  /** Files the store wrote, for the file store's own checks. */
  root?: string;
  /** The s3rver endpoint and a client of it, for the S3 store's own checks. */
  s3?: { endpoint: string; admin: S3Client };
  close(): Promise<void>;
}

async function fileHarness(): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'image-store-'));
  const root = join(dir, 'images');
  return { store: new FileImageStore(root), root, close: () => rm(dir, { recursive: true, force: true }) };
}

async function s3Harness(): Promise<Harness> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const options = { bucket: 'images-test', endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  const admin = new S3Client({ region: options.region, endpoint: options.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  await admin.send(new CreateBucketCommand({ Bucket: options.bucket }));
  const store = new S3ImageStore({ ...options, prefix: 'site-a/' });
  return {
    store,
    s3: { endpoint: options.endpoint, admin },
    close: async () => {
      store.onApplicationShutdown();
      admin.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Every byte value, line feeds and all, so no store can get away with text handling. */
const everyByte = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 37) % 256));

describe.each([
  ['FileImageStore', fileHarness],
  ['S3ImageStore (s3rver)', s3Harness],
] as const)('%s', (_name, makeHarness) => {
  let harness: Harness;
  let store: Store;

  beforeAll(async () => {
    harness = await makeHarness();
    store = harness.store;
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('returns what was put, bytes and content type', async () => {
    await store.put('jobs/1/input', everyByte, 'image/jpeg');
    const got = await store.get('jobs/1/input');
    expect(got?.contentType).toBe('image/jpeg');
    expect(Buffer.compare(got!.bytes, everyByte)).toBe(0);
  });

  it('keeps an empty object', async () => {
    await store.put('jobs/1/empty', Buffer.alloc(0), 'application/octet-stream');
    expect(await store.get('jobs/1/empty')).toEqual({ bytes: Buffer.alloc(0), contentType: 'application/octet-stream' });
  });

  it('answers null for a key never written', async () => {
    expect(await store.get('jobs/404/result.png')).toBeNull();
    expect(await store.get('nothing-here')).toBeNull();
  });

  it('replaces an object put again', async () => {
    await store.put('jobs/2/result.png', Buffer.from('first'), 'image/png');
    await store.put('jobs/2/result.png', Buffer.from('second, longer'), 'image/webp');
    expect(await store.get('jobs/2/result.png')).toEqual({ bytes: Buffer.from('second, longer'), contentType: 'image/webp' });
  });

  it('deletes, and deleting twice or a missing key is fine', async () => {
    await store.put('jobs/3/thumb.jpg', Buffer.from('x'), 'image/jpeg');
    await store.put('jobs/3/result.png', Buffer.from('y'), 'image/png');
    await store.delete('jobs/3/thumb.jpg');
    await store.delete('jobs/3/thumb.jpg');
    await store.delete('jobs/never/was');
    expect(await store.get('jobs/3/thumb.jpg')).toBeNull();
    expect((await store.get('jobs/3/result.png'))?.bytes.toString()).toBe('y');
  });

  const badKeys = ['../escape', '/absolute', 'jobs//double', 'Jobs/upper', 'jobs/./dot', 'jobs/..', 'jobs/a..b', 'back\\slash', 'white space', 'jobs/', '', 'ünïcode', 'a'.repeat(513)];
  it.each(badKeys.map((key) => [key.length > 40 ? `of ${key.length} characters` : JSON.stringify(key), key]))(
    'refuses the key %s',
    async (_label, key) => {
      await expect(store.put(key, Buffer.from('x'), 'image/png')).rejects.toThrow(RangeError);
      await expect(store.get(key)).rejects.toThrow(RangeError);
      await expect(store.delete(key)).rejects.toThrow(RangeError);
    },
  );

  it('refuses a content type that could break a header', async () => {
    await expect(store.put('jobs/5/x', Buffer.from('x'), 'image/png\nimgstore/1 text/html')).rejects.toThrow(RangeError);
    await expect(store.put('jobs/5/x', Buffer.from('x'), 'not a type')).rejects.toThrow(RangeError);
    expect(await store.get('jobs/5/x')).toBeNull();
  });
});

describe('FileImageStore on disk', () => {
  let harness: Harness;
  let store: FileImageStore;
  let root: string;

  beforeAll(async () => {
    harness = await fileHarness();
    store = harness.store as FileImageStore;
    root = harness.root!;
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('writes one private file per key, the content type in its first line, no temporary file left', async () => {
    await store.put('jobs/7/result.png', Buffer.from('PNGDATA'), 'image/png');
    expect(await readdir(join(root, 'jobs/7'))).toEqual(['result.png']);
    expect((await readFile(join(root, 'jobs/7/result.png'))).toString()).toBe('imgstore/1 image/png\nPNGDATA');
    expect((await stat(join(root, 'jobs/7/result.png'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(root, 'jobs/7'))).mode & 0o777).toBe(0o700);
  });

  // Not in the shared contract: s3rver writes an object's bytes and its metadata as two files, in
  // place, so it can mix two concurrent writes (S3 itself replaces an object atomically).
  it('never shows a half-written object to concurrent writers and readers', async () => {
    const versions = Array.from({ length: 12 }, (_, i) => ({ bytes: Buffer.alloc(200_000 + i * 1000, i), type: `image/v${i}` }));
    await store.put('jobs/4/result.png', versions[0]!.bytes, versions[0]!.type);
    let writing = true;
    const writers = Promise.all(versions.map((v) => store.put('jobs/4/result.png', v.bytes, v.type))).finally(() => (writing = false));
    const seen: { bytes: Buffer; contentType: string }[] = [];
    while (writing) seen.push((await store.get('jobs/4/result.png'))!);
    await writers;
    seen.push((await store.get('jobs/4/result.png'))!);

    for (const got of seen) {
      const version = versions.find((v) => v.type === got?.contentType);
      expect(version).toBeDefined();
      expect(Buffer.compare(got.bytes, version!.bytes)).toBe(0);
    }
    expect(await readdir(join(root, 'jobs/4'))).toEqual(['result.png']);
    await store.delete('jobs/4/result.png');
  });

  it('removes the directories a delete leaves empty, never the root', async () => {
    await store.put('jobs/8/a', Buffer.from('a'), 'image/png');
    await store.put('jobs/8/b', Buffer.from('b'), 'image/png');
    await store.delete('jobs/8/a');
    expect(await readdir(join(root, 'jobs/8'))).toEqual(['b']);
    await store.delete('jobs/8/b');
    expect(await readdir(join(root, 'jobs'))).not.toContain('8');
    await store.delete('jobs/7/result.png');
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses a file it did not write', async () => {
    await mkdir(join(root, 'jobs/9'), { recursive: true });
    await writeFile(join(root, 'jobs/9/input'), 'plain bytes');
    await expect(store.get('jobs/9/input')).rejects.toThrow(/Not an image store file/);
  });
});

describe('S3ImageStore on s3rver', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await s3Harness();
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('keeps its objects under its prefix', async () => {
    await harness.store.put('jobs/12/result.png', Buffer.from('png'), 'image/png');
    const listed = await harness.s3!.admin.send(new ListObjectsV2Command({ Bucket: 'images-test' }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual(['site-a/jobs/12/result.png']);
  });

  it('fails loudly when the bucket is missing, rather than answering "no such image"', async () => {
    const lost = new S3ImageStore({ bucket: 'no-such-bucket', endpoint: harness.s3!.endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
    try {
      await expect(lost.get('jobs/1/input')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    } finally {
      lost.onApplicationShutdown();
    }
  });
});

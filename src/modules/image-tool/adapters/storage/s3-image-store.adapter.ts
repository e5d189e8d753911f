import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import type { OnApplicationShutdown } from '@nestjs/common';
import { ImageStore } from 'src/modules/image-tool/domain/image-store.port';
import { assertContentType, assertImageKey } from './image-key.policy';

export interface S3ImageStoreOptions {
  bucket: string;
  /** For S3-compatible servers (MinIO, R2, s3rver); AWS itself when absent. */
  endpoint?: string;
  region: string;
  /** Both, or neither for the SDK's default chain (environment, instance or task role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Bucket in the path (`endpoint/bucket/key`), as most S3-compatible servers want. */
  forcePathStyle?: boolean;
  /** Put every key under this prefix (e.g. "images/") to share a bucket. */
  prefix?: string;
}

/**
 * Objects in an S3 bucket, for web and worker processes on several machines. The content type is
 * the object's Content-Type. Checksums are sent only where S3 requires them: S3-compatible servers
 * lag behind AWS's newer default of a CRC on every upload.
 */
export class S3ImageStore extends ImageStore implements OnApplicationShutdown {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3ImageStoreOptions) {
    super();
    this.bucket = options.bucket;
    const prefix = options.prefix?.replace(/\/+$/, '');
    if (prefix) assertImageKey(prefix);
    this.prefix = prefix ? `${prefix}/` : '';
    const config: S3ClientConfig = {
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
    };
    if (options.accessKeyId && options.secretAccessKey) config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    this.client = new S3Client(config);
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertContentType(contentType);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
  }

  async get(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      const body = await object.Body?.transformToByteArray();
      if (!body) return null;
      return { bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength), contentType: object.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** Deleting a missing key succeeds, as S3 does. */
  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  onApplicationShutdown(): void {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    assertImageKey(key);
    return this.prefix + key;
  }
}

/** The key is missing; a missing bucket is a configuration error and stays one. */
function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  if (e?.name === 'NoSuchBucket') return false;
  return e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The image tool's public face: submissions and conversions as services, its ports, errors and types. No Nest wiring. */
export { ImageConversionRunner } from './application/image-conversion.runner';
export { ImageToolService } from './application/image-tool.service';
export { ImageCodec } from './domain/image-codec.port';
export { ImageConverter } from './domain/image-converter.port';
export { ImageFetcher } from './domain/image-fetcher.port';
export { ImageJobRepository } from './domain/image-job-repository.port';
export { ImageStore } from './domain/image-store.port';
export * from './domain/image-tool.errors';
export type { ImageJob, ImageJobStatus } from './domain/image-job';

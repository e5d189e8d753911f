import { ImageFetcher } from '../domain/image-fetcher.port';
import { ImageFetchError } from '../domain/image-tool.errors';

/** The network for specs: the images a spec put at URLs; any other URL fails as an unreachable one does. */
export class FakeImageFetcher extends ImageFetcher {
  readonly responses = new Map<string, Buffer>();
  readonly fetched: string[] = [];

  async fetch(url: string, signal?: AbortSignal): Promise<{ bytes: Buffer; contentType: string }> {
    signal?.throwIfAborted();
    this.fetched.push(url);
    const bytes = this.responses.get(url);
    if (!bytes) throw new ImageFetchError(`nothing at ${url}`);
    return { bytes, contentType: 'image/png' };
  }
}

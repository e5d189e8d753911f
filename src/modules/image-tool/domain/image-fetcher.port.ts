/**
 * Fetches an image from a URL a user typed, without letting anyone reach inside the network:
 * http(s) on ports 80/443 only, no credentials, every DNS answer and redirect hop checked against
 * private and special ranges at connect time, at most 3 redirects, 3 s to connect, 10 s in all,
 * 10 MB of decoded bytes, image content types only. Throws ImageFetchError: its message for the
 * user is always the same; `reason` is for the log.
 */
export abstract class ImageFetcher {
  abstract fetch(url: string, signal?: AbortSignal): Promise<{ bytes: Buffer; contentType: string }>;
}

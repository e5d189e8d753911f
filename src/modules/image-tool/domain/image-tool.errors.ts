import { AppError } from 'src/platform/errors/app-error';

/** Not an image we take (format, size, pixels, corrupt): fails at once, never retried. */
export class InvalidImageError extends AppError {
  readonly code = 'IMAGES.INVALID_IMAGE';
  readonly kind = 'validation';
  constructor(
    message: string,
    /** For the log only. */
    readonly reason = message,
  ) {
    super(message);
  }
}

/** The URL could not be fetched: one message for every cause (the log gets `reason`). */
export class ImageFetchError extends AppError {
  readonly code = 'IMAGES.FETCH_FAILED';
  readonly kind = 'validation';
  constructor(readonly reason: string) {
    super('Could not fetch the image. Check the URL points to a public JPEG, PNG, WebP or GIF file.');
  }
}

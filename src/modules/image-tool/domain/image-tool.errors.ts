import { IMAGE_WOULD_NOT_ENLARGE_MESSAGE } from 'src/contracts/images';
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

/**
 * The per-user cap on jobs queued or running. Retry-After is a fixed 10 s: a conversion takes about
 * 6 s once it runs (docs/benchmarks.md), so one slot is usually free by then.
 */
export class TooManyUnfinishedJobsError extends AppError {
  readonly code = 'IMAGES.TOO_MANY_UNFINISHED';
  readonly kind = 'rate_limited';
  readonly retryAfterSeconds = 10;
  constructor(max: number) {
    super(`You have ${max} images in progress: wait for one to finish.`);
  }
}

export class TooManySubmissionsError extends AppError {
  readonly code = 'IMAGES.TOO_MANY_SUBMISSIONS';
  readonly kind = 'rate_limited';
  readonly retryAfterSeconds = 60;
  constructor() {
    super('Too many images in a short time, please wait a minute.');
  }
}

/** Someone else's job answers exactly like a missing one. */
export class ImageJobNotFoundError extends AppError {
  readonly code = 'IMAGES.NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('There is no such image job, or its files were deleted.');
  }
}

/**
 * An enlargement of an input past the result's bound would come back smaller than it went in:
 * refused before any credit for uploads, a failure with the credit returned for URL jobs.
 */
export class WouldNotEnlargeError extends AppError {
  readonly code = 'IMAGES.WOULD_NOT_ENLARGE';
  readonly kind = 'validation';
  readonly reason: string;
  constructor(width: number, height: number) {
    super(IMAGE_WOULD_NOT_ENLARGE_MESSAGE);
    this.reason = `${width}x${height} is past the enlargement bound`;
  }
}

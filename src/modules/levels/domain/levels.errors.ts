import { AppError } from 'src/platform/errors/app-error';

/** The level has no published guide: nothing to read or vote on. */
export class NoGuideError extends AppError {
  readonly code = 'LEVELS.NO_GUIDE';
  readonly kind = 'not_found';
  constructor(level: number) {
    super(`Level ${level} has no guide yet`);
  }
}

/** "Request this guide" for a level whose guide is published already. */
export class GuideExistsError extends AppError {
  readonly code = 'LEVELS.HAS_GUIDE';
  readonly kind = 'conflict';
  constructor(level: number) {
    super(`Level ${level} already has a guide`);
  }
}

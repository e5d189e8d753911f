import { AppError } from 'src/platform/errors/app-error';

export class NoGuideError extends AppError {
  readonly code = 'PROGRESS.NO_GUIDE';
  readonly kind = 'not_found';
  constructor(level: number) {
    super(`Level ${level} has no guide yet`);
  }
}

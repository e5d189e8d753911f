import { AppError } from 'src/platform/errors/app-error';

export class NoGuideError extends AppError {
  readonly code = 'PROGRESS.NO_GUIDE';
  readonly kind = 'not_found';
  constructor(level: number) {
    super(`Level ${level} has no guide yet`);
  }
}

/** A sync whose `since` is not this account's cursor: the browser starts over with the full merge. */
export class SyncRestartError extends AppError {
  readonly code = 'PROGRESS.SYNC_RESTART';
  readonly kind = 'conflict';
  constructor() {
    super('This browser last synced with another account: send all its progress again, without since.');
  }
}

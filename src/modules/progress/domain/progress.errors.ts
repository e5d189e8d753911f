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

/** A stop count for a hint ladder the guide does not have, or for more hints than it has. */
export class UnknownLadderError extends AppError {
  readonly code = 'PROGRESS.UNKNOWN_LADDER';
  readonly kind = 'validation';
  constructor(level: number, ladder: string, hints?: number) {
    super(hints === undefined ? `Level ${level} has no hint ladder "${ladder}"` : `The ladder "${ladder}" of level ${level} has ${hints} hint(s): at most ${hints} can be revealed`);
  }
}

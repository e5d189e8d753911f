import { AppError } from 'src/platform/errors/app-error';

export class NoGuideError extends AppError {
  readonly code = 'PROGRESS.NO_GUIDE';
  readonly kind = 'not_found';
  constructor(level: number) {
    super(`Level ${level} has no guide yet`);
  }
}

export class UnknownLadderError extends AppError {
  readonly code = 'PROGRESS.UNKNOWN_LADDER';
  readonly kind = 'validation';
  constructor(level: number, ladder: string, hints?: number) {
    super(hints === undefined ? `Level ${level} has no hint ladder "${ladder}"` : `The ladder "${ladder}" of level ${level} has ${hints} hint(s): at most ${hints} can be revealed`);
  }
}

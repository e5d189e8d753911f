import { AppError } from 'src/platform/errors/app-error';

export class LevelNotFoundError extends AppError {
  readonly code = 'LEVELS.NOT_FOUND';
  readonly kind = 'not_found';

  constructor(number: number) {
    super(`Level ${number} has no guide`);
  }
}

import { AppError } from 'src/platform/errors/app-error';

/** An account is not deleted while one of its image jobs is queued or running: its result would belong to nobody. */
export class ImageJobRunningError extends AppError {
  readonly code = 'ACCOUNT.IMAGE_JOB_RUNNING';
  readonly kind = 'conflict';
  constructor(count: number) {
    super(`${count === 1 ? 'An image job of yours is' : `${count} image jobs of yours are`} still converting. Wait until ${count === 1 ? 'it finishes' : 'they finish'}, then delete your account.`);
  }
}

import { AppError } from 'src/platform/errors/app-error';

/** Only a published guide can be reported: a level without one answers like a missing page. */
export class NoGuideToReportError extends AppError {
  readonly code = 'GUIDE_REPORTS.NO_GUIDE';
  readonly kind = 'not_found';
  constructor(level: number) {
    super(`Level ${level} has no guide to report a problem with.`);
  }
}

export class InvalidGuideReportError extends AppError {
  readonly code = 'GUIDE_REPORTS.INVALID';
  readonly kind = 'validation';
}

/** No report has this id (never had, or deleted after its 180 days). */
export class GuideReportNotFoundError extends AppError {
  readonly code = 'GUIDE_REPORTS.NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('No such report.');
  }
}

/** Progress' public face: players' solved levels as a service, its ports and errors. No Nest wiring. */
export { ProgressService } from './application/progress.service';
export { AccountProgressRepository } from './domain/account-progress-repository.port';
export { ProgressCountRepository } from './domain/progress-count-repository.port';
export * from './domain/progress.errors';

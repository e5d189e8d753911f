/** Levels' public face: guides and level pages as a service, its ports and types. No Nest wiring. */
export { LevelsService } from './application/levels.service';
export { PreviewImageService } from './application/preview-image.service';
export { checkLevelFiles } from './application/check-level-files';
export { LEVEL_SOURCES } from './application/level-content.kind';
export { GuideVoteRepository } from './domain/guide-vote-repository.port';
export { LevelRepository, type ImportSummary, type LevelPage } from './domain/level-repository.port';
export { GuideExistsError, NoGuideError } from './domain/levels.errors';
export type { Level, LevelGuide } from './domain/level';

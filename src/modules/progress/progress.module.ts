import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { ProgressController } from './adapters/http/progress.controller';
import { MikroOrmAccountProgressRepository } from './adapters/persistence/mikro-orm-account-progress-repository.adapter';
import { MikroOrmProgressCountRepository } from './adapters/persistence/mikro-orm-progress-count-repository.adapter';
import { PROGRESS_ENTITIES } from './adapters/persistence/progress.entities';
import { ProgressService } from './application/progress.service';
import { AccountProgressRepository } from './domain/account-progress-repository.port';
import { ProgressCountRepository } from './domain/progress-count-repository.port';

/**
 * Players' progress: kept in the browser by the pages, merged into the account when signed in
 * (the merge rules are shared with the browser: src/contracts/progress.ts), and counted per level
 * without saying who. Levels says which guides exist.
 */
@Module({
  imports: [MikroOrmModule.forFeature(PROGRESS_ENTITIES), AuthGuardsModule, LevelsModule],
  controllers: [ProgressController],
  providers: [
    ProgressService,
    { provide: AccountProgressRepository, useClass: MikroOrmAccountProgressRepository },
    { provide: ProgressCountRepository, useClass: MikroOrmProgressCountRepository },
  ],
})
export class ProgressModule {}

import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { LevelListQuery, LevelsPages } from 'src/contracts/levels';
import { PageSections } from 'src/platform/pages/page-sections';
import { LevelsService } from '../../application/levels.service';

/** The levels' section of the page data: what the home, list, hardest and guide pages' loaders read. */
@Injectable()
export class LevelsPageData implements LevelsPages, OnModuleInit {
  constructor(
    private readonly levels: LevelsService,
    private readonly sections: PageSections,
  ) {}

  onModuleInit(): void {
    this.sections.add('levels', this);
  }

  page(number: number) {
    return this.levels.levelPage(number);
  }

  list(query: LevelListQuery) {
    return this.levels.list(query);
  }

  hardest() {
    return this.levels.hardest();
  }

  featured() {
    return this.levels.featured();
  }

  guideRanges() {
    return this.levels.guideRanges();
  }

  home() {
    return this.levels.home();
  }
}

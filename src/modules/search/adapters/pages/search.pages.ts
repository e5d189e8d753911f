import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { SearchPages } from 'src/contracts/search';
import { PageSections } from 'src/platform/pages/page-sections';
import { SearchService } from '../../application/search.service';

/** Search's section of the page data: the /search page's results. */
@Injectable()
export class SearchPageData implements SearchPages, OnModuleInit {
  constructor(
    private readonly searches: SearchService,
    private readonly sections: PageSections,
  ) {}

  onModuleInit(): void {
    this.sections.add('search', this);
  }

  results(query: string) {
    return this.searches.search(query);
  }
}

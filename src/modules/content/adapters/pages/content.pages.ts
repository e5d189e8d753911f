import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ContentPages, PostListQuery } from 'src/contracts/content';
import { PageSections } from 'src/platform/pages/page-sections';
import { SiteContentService } from '../../application/site-content.service';

/** Site content's section of the page data: what the blog, post, content, media and explore pages' loaders read. */
@Injectable()
export class ContentPageData implements ContentPages, OnModuleInit {
  constructor(
    private readonly content: SiteContentService,
    private readonly sections: PageSections,
  ) {}

  onModuleInit(): void {
    this.sections.add('content', this);
  }

  page(slug: string) {
    return this.content.page(slug);
  }

  post(slug: string) {
    return this.content.post(slug);
  }

  posts(query: PostListQuery) {
    return this.content.posts(query);
  }

  media() {
    return this.content.media();
  }

  explore() {
    return this.content.explore();
  }
}

/** Site content's public face: pages, posts and media as a service, its port and types. No Nest wiring. */
export { SiteContentService } from './application/site-content.service';
export { SiteContentRepository } from './domain/site-content-repository.port';
export type { BlogPost, ContentPage } from './domain/content';

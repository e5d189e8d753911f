import { Module } from '@nestjs/common';
import { PageSections } from './page-sections';
import { PageViews } from './page-views';
import { SitePages } from './site-pages';
import { SitemapSources } from './sitemap-sources';

/**
 * The registries between the modules and the SSR bridge, one each per process: modules add their
 * page data section, sitemap entries and page-view listeners; the bridge composes them and knows no
 * module. Modules with pages import this module.
 */
@Module({ providers: [PageSections, SitemapSources, PageViews, SitePages], exports: [PageSections, SitemapSources, PageViews, SitePages] })
export class PagesModule {}

import { Injectable } from '@nestjs/common';
import type { PageData, PageSectionName } from 'src/contracts/page-data';
import type { SiteRules } from 'src/contracts/ssr';

/**
 * The page data loaders call (`data.levels.page(27)`), one section per module: each module's
 * `adapters/pages/<name>.pages.ts` implements its section's type (declared in
 * `src/contracts/<name>.ts`) and adds itself here from onModuleInit, as job processors and content
 * kinds register with their registries. The SSR bridge composes them with the site's rules, and
 * refuses to start while a route reads a section no loaded module added.
 */
@Injectable()
export class PageSections {
  private readonly sections = new Map<string, object>();

  add<N extends PageSectionName>(name: N, section: PageData[N]): void {
    if (this.sections.has(name)) throw new Error(`The page data section ${name} is already added`);
    this.sections.set(name, section);
  }

  /**
   * Throws unless every section a route reads was added: a route whose module is not loaded fails
   * the start, naming both, rather than its first request. `routes`: the sections by route id.
   */
  check(routes: Readonly<Record<string, readonly string[]>>): void {
    const missing = Object.entries(routes).flatMap(([route, names]) => names.filter((name) => !this.sections.has(name)).map((name) => `route ${route} reads ${name}`));
    if (missing.length) {
      throw new Error(`Page data sections missing (${missing.join('; ')}): the module that adds each one (src/modules/<name>/adapters/pages) is not loaded`);
    }
  }

  /** The page data: the site's rules and every section added so far (call once every module has started). */
  compose(site: SiteRules): PageData {
    return Object.freeze({ ...Object.fromEntries(this.sections), config: site.config, redirects: site.redirects }) as PageData;
  }
}

/** Search's public face: the one search as a service and its port. No Nest wiring. */
export { SearchService } from './application/search.service';
export { SpellingLexicon } from './domain/spelling-lexicon.port';

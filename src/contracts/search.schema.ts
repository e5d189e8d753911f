import { z } from 'zod';
import { DIFFICULTIES } from './levels';
import { SEARCH_QUERY_MAX, type SearchResults } from './search';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** GET /api/v1/search?q=: words, a level number or both; blank, too long or with control characters is a 400. */
export const searchQuerySchema = z.strictObject({
  q: z
    .string({ error: 'must be given once: the words or level number to search for' })
    .max(SEARCH_QUERY_MAX, `at most ${SEARCH_QUERY_MAX} characters`)
    .refine((q) => !CONTROL_CHARS.test(q), 'must not contain control characters')
    .transform((q) => q.trim().replace(/\s+/g, ' '))
    .refine((q) => q !== '', 'must not be blank'),
});

const segmentsSchema = z
  .array(z.object({ text: z.string(), mark: z.literal(true).optional().describe('A word the query matched') }))
  .describe('The text in pieces, the matched words marked: render each piece as text, a marked one inside <mark>');

const hit = {
  url: z.string().describe('Path of the hit on this site'),
  title: segmentsSchema,
  snippet: segmentsSchema.describe('Up to two passages around the matches, joined with " … "'),
};

/** The answer of GET /api/v1/search; parsed through it, so only these fields leave the server. */
export const searchResultsSchema = z.object({
  query: z.string().describe('The query as searched'),
  searched: z.string().describe('The words looked for, after spelling corrections'),
  corrections: z.array(z.object({ from: z.string(), to: z.string() })).describe('Words replaced by the closest word of the site'),
  unknown: z.array(z.string()).describe('Words neither found nor close to a word of the site: left out'),
  match: z.enum(['all', 'any']).describe("'any' when no hit had every word, so these have some"),
  groups: z
    .array(
      z.discriminatedUnion('kind', [
        z.object({
          kind: z.literal('levels'),
          total: z.number().int(),
          hits: z.array(z.object({ ...hit, number: z.number().int(), difficulty: z.enum(DIFFICULTIES) })),
        }),
        z.object({ kind: z.literal('posts'), total: z.number().int(), hits: z.array(z.object({ ...hit, slug: z.string(), publishedAt: z.string() })) }),
        z.object({ kind: z.literal('pages'), total: z.number().int(), hits: z.array(z.object({ ...hit, slug: z.string() })) }),
      ]),
    )
    .describe('Kinds with hits, the best first; hits best first'),
}) satisfies z.ZodType<SearchResults>;

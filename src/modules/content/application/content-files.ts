import { z } from 'zod';
import { InvalidDateError, parseIsoDate } from 'src/contracts/dates';
import { isPageSlug, isPostSlug, isTag, type MediaEntry } from 'src/contracts/content';
import { parse as parseYaml } from 'yaml';
import { ContentFileError, readContentFile, type ContentFile } from 'src/platform/content/content-file';
import type { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import type { PageFile, PostFile } from '../domain/content';

/** Dates must be YYYY-MM-DD with an optional time; YAML may hand them over as text only. */
const isoDateText = z.string({ error: 'must be a date written YYYY-MM-DD (with an optional time)' });

const pageSchema = z.strictObject({
  title: z.string().trim().min(2).max(100),
  description: z.string().trim().max(300).default(''),
  updated: isoDateText,
});

const postSchema = z.strictObject({
  title: z.string().trim().min(2).max(120),
  description: z.string().trim().max(300).default(''),
  date: isoDateText,
  tags: z.array(z.string().refine(isTag, 'must be lower-case letters, digits and hyphens')).max(10).default([]),
});

function checkedDate(file: ContentFile, field: string, value: string): Date {
  try {
    return parseIsoDate(value);
  } catch (error) {
    if (error instanceof InvalidDateError) throw new ContentFileError(file.name, field, error.message);
    throw error;
  }
}

/** content/pages/{slug}.md */
export function parsePageFile(file: ContentFile, markdown: MarkdownRenderer): PageFile {
  const slug = /^pages\/(.+)\.md$/.exec(file.name)?.[1] ?? '';
  if (!isPageSlug(slug)) throw new ContentFileError(file.name, '(file name)', 'must be a lower-case slug like terms-of-service.md');
  const { data, body, hash } = readContentFile(file, pageSchema);
  const updated = checkedDate(file, 'updated', data.updated);
  return {
    slug,
    title: data.title,
    description: data.description,
    html: markdown.render(body),
    updatedOn: updated.toISOString().slice(0, 10),
    searchText: [data.title, data.description, markdown.toPlainText(body)].join('\n'),
    sourceHash: hash,
  };
}

/** content/blog/{slug}.md, where the slug may contain folders (blog/2026/hello.md is /blog/2026/hello). */
export function parsePostFile(file: ContentFile, markdown: MarkdownRenderer): PostFile {
  const slug = /^blog\/(.+)\.md$/.exec(file.name)?.[1] ?? '';
  if (!isPostSlug(slug)) throw new ContentFileError(file.name, '(file name)', 'must be lower-case path segments like 2026/new-levels.md');
  const { data, body, hash } = readContentFile(file, postSchema);
  return {
    slug,
    title: data.title,
    description: data.description,
    html: markdown.render(body),
    publishedAt: checkedDate(file, 'date', data.date),
    tags: [...new Set(data.tags)],
    searchText: [data.title, data.description, markdown.toPlainText(body)].join('\n'),
    sourceHash: hash,
  };
}

const mediaSchema = z
  .array(
    z.strictObject({
      outlet: z.string().trim().min(1).max(80),
      title: z.string().trim().min(1).max(200),
      url: z.url({ protocol: /^https?$/ }).max(2048),
      date: isoDateText,
      summary: z.string().trim().max(400).default(''),
    }),
  )
  .max(500);

/** content/media.yaml: the media coverage list of /media, newest first. */
export function parseMediaFile(file: ContentFile): MediaEntry[] {
  let raw: unknown;
  try {
    raw = parseYaml(file.text, { maxAliasCount: 10 });
  } catch (error) {
    throw new ContentFileError(file.name, '(file)', `is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = mediaSchema.safeParse(raw ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContentFileError(file.name, issue.path.join('.') || '(file)', issue.message);
  }
  return parsed.data
    .map((entry, i) => ({ ...entry, date: checkedDate(file, `${i}.date`, entry.date).toISOString().slice(0, 10) }))
    .sort((a, b) => b.date.localeCompare(a.date));
}

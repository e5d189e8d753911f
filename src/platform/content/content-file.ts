import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { AppError } from 'src/platform/errors/app-error';

/** A content file (guide, post, page) that cannot be imported: names the file, the field and the problem. */
export class ContentFileError extends AppError {
  readonly code = 'CONTENT.INVALID_FILE';
  readonly kind = 'validation';

  constructor(
    readonly file: string,
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${file}: ${field}: ${problem}`);
  }
}

export interface ContentFile {
  /** Path relative to the content root, e.g. levels/027.md: error messages name it. */
  name: string;
  text: string;
}

const MAX_FILE_BYTES = 64 * 1024;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/**
 * Splits a Markdown file into validated front matter and body. The first problem found becomes a
 * ContentFileError naming the file and the field.
 */
export function readContentFile<S extends z.ZodType>(file: ContentFile, schema: S): { data: z.output<S>; body: string; hash: string } {
  const fail = (field: string, problem: string): never => {
    throw new ContentFileError(file.name, field, problem);
  };
  if (Buffer.byteLength(file.text) > MAX_FILE_BYTES) fail('(file)', `is larger than ${MAX_FILE_BYTES / 1024} KiB`);
  const parts = FRONT_MATTER.exec(file.text);
  if (!parts) return fail('(front matter)', 'the file must start with front matter between two "---" lines');
  let raw: unknown;
  try {
    raw = parseYaml(parts[1]!, { maxAliasCount: 10 });
  } catch (error) {
    return fail('(front matter)', `is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(issue.path.join('.') || '(front matter)', issue.message);
  }
  return { data: parsed.data, body: parts[2]!.trim(), hash: createHash('sha256').update(file.text).digest('hex') };
}

/** sha256 over file names and texts: unchanged content is not imported again at start. */
export function contentHash(files: ContentFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.name}\0${file.text}\0`);
  return hash.digest('hex');
}

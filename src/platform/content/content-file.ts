import { createHash } from 'node:crypto';
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';
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
  /** A binary asset beside the Markdown (a guide's picture): its bytes, `text` empty. */
  bytes?: Buffer;
}

/** One problem of a content file: the field (a dotted path), its line in the file (1-based), what is wrong. */
export interface ContentFault {
  field: string;
  line: number;
  problem: string;
}

/** `levels/027.md:14: puzzles.0.hints: needs at least one hint`: what `content:check` prints. */
export const formatFault = (file: string, fault: ContentFault) => `${file}:${fault.line}: ${fault.field}: ${fault.problem}`;

/** A front-matter check: the data when it passed the schema, every fault, and where a field is. */
export interface CheckedContentFile<T> {
  data?: T;
  body: string;
  hash: string;
  faults: ContentFault[];
  /** The file line the body starts on. */
  bodyLine: number;
  /** The file line of a field path (of its nearest existing parent when it is missing). */
  lineOf(path: readonly (string | number)[]): number;
}

const MAX_FILE_BYTES = 64 * 1024;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** The line of a path in the YAML document (the front matter starts on the file's line 2). */
function yamlLine(doc: Document, lines: LineCounter, path: readonly (string | number)[]): number {
  for (let depth = path.length; depth > 0; depth--) {
    const parent: unknown = depth > 1 ? doc.getIn(path.slice(0, depth - 1), true) : doc.contents;
    // A map key's own line ("hints:"), else the value's.
    const pair = isMap(parent) ? parent.items.find((item) => (item.key as { value?: unknown } | null)?.value === path[depth - 1]) : undefined;
    const node = (pair?.key ?? doc.getIn(path.slice(0, depth), true)) as { range?: [number, number, number] } | undefined;
    if (node?.range) return lines.linePos(node.range[0]).line + 1;
  }
  return 2;
}

/**
 * Splits a Markdown file into front matter and body and checks the front matter against the
 * schema, collecting every fault with its line (content:check prints them all).
 */
export function checkContentFile<S extends z.ZodType>(file: ContentFile, schema: S): CheckedContentFile<z.output<S>> {
  const hash = createHash('sha256').update(file.text).digest('hex');
  const none = { body: '', hash, bodyLine: 1, lineOf: () => 1 };
  if (Buffer.byteLength(file.text) > MAX_FILE_BYTES) return { ...none, faults: [{ field: '(file)', line: 1, problem: `is larger than ${MAX_FILE_BYTES / 1024} KiB` }] };
  const parts = FRONT_MATTER.exec(file.text);
  if (!parts) return { ...none, faults: [{ field: '(front matter)', line: 1, problem: 'the file must start with front matter between two "---" lines' }] };
  const lines = new LineCounter();
  const doc = parseDocument(parts[1]!, { lineCounter: lines });
  const body = parts[2]!.trim();
  // The front matter's lines, both "---" and the blank lines the trim took off the body.
  const bodyLine = parts[1]!.split('\n').length + 3 + (/^\s*/.exec(parts[2]!)![0].match(/\n/g)?.length ?? 0);
  if (doc.errors.length) {
    const error = doc.errors[0]!;
    return { ...none, body, bodyLine, faults: [{ field: '(front matter)', line: (error.linePos?.[0].line ?? 0) + 1, problem: `is not valid YAML: ${error.message.split('\n')[0]}` }] };
  }
  const lineOf = (path: readonly (string | number)[]) => yamlLine(doc, lines, path);
  const parsed = schema.safeParse(doc.toJS({ maxAliasCount: 10 }));
  if (parsed.success) return { data: parsed.data, body, hash, faults: [], bodyLine, lineOf };
  const faults = parsed.error.issues.map((issue) => {
    const path = issue.path.filter((part): part is string | number => typeof part !== 'symbol');
    return { field: path.join('.') || '(front matter)', line: lineOf(path), problem: issue.message };
  });
  return { body, hash, faults, bodyLine, lineOf };
}

/**
 * Splits a Markdown file into validated front matter and body. The first problem found becomes a
 * ContentFileError naming the file and the field.
 */
export function readContentFile<S extends z.ZodType>(file: ContentFile, schema: S): { data: z.output<S>; body: string; hash: string } {
  const { data, body, hash, faults } = checkContentFile(file, schema);
  if (faults.length) throw new ContentFileError(file.name, faults[0]!.field, faults[0]!.problem);
  return { data: data as z.output<S>, body, hash };
}

/** sha256 over file names and texts: unchanged content is not imported again at start. */
export function contentHash(files: ContentFile[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file.name}\0${file.text}\0`);
    if (file.bytes) hash.update(file.bytes).update('\0');
  }
  return hash.digest('hex');
}

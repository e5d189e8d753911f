import { Logger } from '@nestjs/common';
import type { MikroORM } from '@mikro-orm/core';
import { loadConfig } from 'src/config/app-config';
import { LocalContentChangeFeed } from './content-change-feed.port';
import { ContentFileError, contentHash, type ContentFile } from './content-file';
import { ContentImporter, type ContentKind } from './content-importer';
import type { ContentSource } from './content-reader.port';
import { InMemoryContentImportLog } from './testing/in-memory-content-import-log';
import { InMemoryContentReader } from './testing/in-memory-content-reader';

/** A kind of notes: one line each, synced into a map; an empty file is malformed. */
class NotesKind implements ContentKind<string[], { created: number }> {
  name = 'notes';
  title = 'Notes';
  sources: ContentSource[] = [{ folder: 'notes' }, { file: 'extra.txt' }];
  readonly stored = new Set<string>();

  constructor(private readonly log: InMemoryContentImportLog) {}

  parse(files: ContentFile[]): string[] {
    return files.map((file) => {
      if (!file.text) throw new ContentFileError(file.name, '(file)', 'is empty');
      return file.text;
    });
  }

  async sync(notes: string[], hash: string): Promise<{ created: number }> {
    const created = notes.filter((note) => !this.stored.has(note)).length;
    notes.forEach((note) => this.stored.add(note));
    this.log.hashes.set(this.name, hash);
    return { created };
  }

  changed(summary: { created: number }): boolean {
    return summary.created > 0;
  }

  describe(summary: { created: number }): string {
    return `Imported notes: ${summary.created} new`;
  }
}

const fakeOrm = { em: { name: 'default', fork: () => ({}) } } as unknown as MikroORM;

describe('ContentImporter', () => {
  const logs: string[] = [];
  let reader: InMemoryContentReader;
  let log: InMemoryContentImportLog;
  let notes: NotesKind;
  const importer = (importOnStart = true) => {
    const built = new ContentImporter(reader, log, fakeOrm, loadConfig({}, { CONTENT_IMPORT_ON_START: String(importOnStart) }), new LocalContentChangeFeed());
    built.register(notes);
    return built;
  };

  beforeEach(() => {
    logs.length = 0;
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void logs.push(String(message)));
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void logs.push(String(message)));
    reader = new InMemoryContentReader();
    log = new InMemoryContentImportLog();
    notes = new NotesKind(log);
    reader.files.set('notes/b.md', 'second');
    reader.files.set('notes/a.md', 'first');
    reader.files.set('extra.txt', 'third');
    reader.files.set('other/c.md', 'not a note');
  });
  afterEach(() => jest.restoreAllMocks());

  it("reads a kind's sources, parses them all, syncs them with their hash, and tells subscribers of a change", async () => {
    const content = importer();
    let told = 0;
    content.onImported(() => told++);
    expect(await content.import('notes')).toEqual({ created: 3 });
    expect([...notes.stored]).toEqual(['first', 'second', 'third']);
    const files = await reader.read(notes.sources);
    expect(log.hashes.get('notes')).toBe(contentHash(files));
    expect(told).toBe(1);
    // Nothing new: subscribers are not told.
    expect(await content.import('notes')).toEqual({ created: 0 });
    expect(told).toBe(1);
  });

  it('writes nothing when one file is malformed', async () => {
    reader.files.set('notes/c.md', '');
    await expect(importer().import('notes')).rejects.toThrow('notes/c.md: (file): is empty');
    expect(notes.stored.size).toBe(0);
  });

  it('imports at start only what changed since the last import, and logs it', async () => {
    await importer().onApplicationBootstrap();
    expect(logs).toEqual([expect.stringMatching(/^Imported notes: 3 new in \d+\.\d\d s$/)]);
    logs.length = 0;
    await importer().onApplicationBootstrap();
    expect(logs).toEqual([]);
    expect(await importer().importIfChanged('notes')).toBe('unchanged');
    reader.files.set('notes/d.md', 'fourth');
    expect(await importer().importIfChanged('notes')).toEqual({ created: 1 });
  });

  it('logs a malformed file at start, names it, and imports the other kinds', async () => {
    const content = importer();
    const pages = Object.assign(new NotesKind(log), { name: 'pages', title: 'Pages', sources: [{ folder: 'other' }], describe: () => 'Imported pages' });
    content.register(pages);
    reader.files.set('notes/c.md', '');
    await content.onApplicationBootstrap();
    expect(logs).toEqual(['Notes not imported: notes/c.md: (file): is empty', expect.stringMatching(/^Imported pages in \d+\.\d\d s$/)]);
    expect([...pages.stored]).toEqual(['not a note']);
  });

  it('imports nothing at start when CONTENT_IMPORT_ON_START is off, and refuses an unknown or repeated kind', async () => {
    const content = importer(false);
    await content.onApplicationBootstrap();
    expect(notes.stored.size).toBe(0);
    expect(() => content.register(notes)).toThrow('already registered');
    await expect(content.import('levels')).rejects.toThrow('No content kind levels');
  });
});

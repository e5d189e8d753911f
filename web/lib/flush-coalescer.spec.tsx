import { PassThrough } from 'node:stream';
import { Suspense, use } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { FlushCoalescer } from './flush-coalescer';

/** Renders through the coalescer and records the chunks that come out of it. */
function renderChunks(node: React.ReactNode): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const out = new FlushCoalescer();
    const chunks: string[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    out.on('end', () => resolve(chunks));
    out.on('error', reject);
    const { pipe } = renderToPipeableStream(node, { onShellReady: () => pipe(out), onShellError: reject });
  });
}

const rows = Array.from({ length: 400 }, (_, i) => <p key={i}>{`Row ${i}: the door opens when the four symbols line up.`}</p>);

describe('FlushCoalescer', () => {
  it('is needed: React writes such a page in many small pieces', async () => {
    const writes = await new Promise<number>((resolve, reject) => {
      const out = new PassThrough();
      let count = 0;
      out.on('data', () => count++);
      out.on('end', () => resolve(count));
      const { pipe } = renderToPipeableStream(<main>{rows}</main>, { onShellReady: () => pipe(out), onShellError: reject });
    });
    expect(writes).toBeGreaterThan(5);
  });

  it('passes a page React writes in many small pieces on as one chunk', async () => {
    const chunks = await renderChunks(<main>{rows}</main>);
    expect(chunks.join('').length).toBeGreaterThan(20_000);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.endsWith('Row 399: the door opens when the four symbols line up.</p></main>')).toBe(true);
  });

  it('still sends the shell before a suspended part resolves, and the part when it does', async () => {
    let reveal!: (text: string) => void;
    const later = new Promise<string>((resolve) => (reveal = resolve));
    const Late = () => <p>{use(later)}</p>;
    const chunks: string[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const out = new FlushCoalescer();
      out.on('data', (chunk: Buffer) => {
        chunks.push(chunk.toString());
        // The shell is out while the boundary is still pending.
        if (chunks.length === 1) reveal('Solved: pull the left lever');
      });
      out.on('end', resolve);
      const { pipe } = renderToPipeableStream(
        <main>
          {rows}
          <Suspense fallback={<p>Loading</p>}>
            <Late />
          </Suspense>
        </main>,
        { onShellReady: () => pipe(out), onShellError: reject },
      );
    });
    await done;
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toContain('Loading');
    expect(chunks[0]).not.toContain('Solved');
    expect(chunks[1]).toContain('Solved: pull the left lever');
  });
});

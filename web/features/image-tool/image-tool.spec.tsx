import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { loadConfig } from 'src/config/app-config';
import { IMAGE_WAIT_NOTICE, planImageSize, type ImageEstimate, type ImageJobView } from 'src/contracts/images';
import { fakePageData } from 'test/support/fake-page-data';
import { renderMain } from 'test/support/page-match';
import { I18nProvider } from 'web/i18n/i18n';
import en from 'web/i18n/messages/en';
import { DEFAULT_CHOICES, type ImageTraits } from 'web/lib/image-tool';
import { Compare } from './compare';
import { JobPanel } from './job-panel';
import { OptionsPanel } from './options-panel';
import { PlanSummary } from './plan-summary';

const render = (node: ReactNode) =>
  renderToStaticMarkup(
    <I18nProvider locale="en" messages={en}>
      {node}
    </I18nProvider>,
  );
// Text as a reader gets it: tags and comments out, entities back.
const text = (html: string) => html.replace(/<!--.*?-->/g, '').replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

const estimate = (seconds: ImageEstimate['seconds'], ahead = 0): { estimate: ImageEstimate | null; loading: boolean } => ({
  estimate: { result: { width: 4096, height: 3072 }, seconds, basis: 'recent', queue: { ahead, workers: 1 } },
  loading: false,
});
const jpeg: ImageTraits = { type: 'image/jpeg', alpha: false, animated: false };

function plan(width: number, height: number, scale: 1 | 2 | null = null, traits: ImageTraits = jpeg, format: 'png' | 'webp' | 'jpeg' = 'jpeg', time = estimate({ low: 20, typical: 25, high: 40 })) {
  return render(
    <PlanSummary
      size={{ width, height }}
      plan={planImageSize(width, height, 'ai-2x', { scale, width: null })}
      ai
      estimate={time}
      traits={traits}
      resultFormat={format}
      onCleanup={() => undefined}
    />,
  );
}

describe('the plan before Convert', () => {
  it('shows the exact result size, that a large photo is shrunk first and to what, and the expected time', () => {
    const html = text(plan(4032, 3024));
    expect(html).toContain('4032 × 3024 → 4096 × 3072 px');
    expect(html).toContain('Shrunk to 2048 × 1536 px first');
    expect(html).toContain('about 25 s (20–40 s)');
    expect(html).toContain('Orientation applied, colours converted to sRGB, transparency kept (PNG/WebP), location and camera details removed');
    expect(html).not.toContain('smaller than it is');
  });

  it('says an image taken as it is is not shrunk, and counts the images ahead', () => {
    const html = text(plan(1000, 750, null, jpeg, 'jpeg', estimate({ low: 8, typical: 10, high: 14 }, 2)));
    expect(html).toContain('1000 × 750 → 2000 × 1500 px');
    expect(html).toContain('Converted at its full size, not shrunk first.');
    expect(html).toMatch(/about 10 s \(8–14 s\) ?, includes 2 images ahead of yours/);
  });

  it('warns that an enlargement of an image over 4096 px would not enlarge it, and offers the same-size clean-up', () => {
    const html = plan(6000, 4000);
    expect(text(html)).toContain('enlarging it would give 4096 × 2731 px, smaller than it is now');
    expect(html).toMatch(/<button type="button"[^>]*data-testid="image-use-cleanup"[^>]*>Use the same-size clean-up \(1x\) instead<\/button>/);
    expect(text(plan(6000, 4000, 1))).toContain('6000 × 4000 → 6000 × 4000 px');
    expect(text(plan(6000, 4000, 1))).not.toContain('smaller than it is');
  });

  it('says JPEG loses transparency and an animation gives its first frame', () => {
    const gif = { type: 'image/gif', alpha: true, animated: true };
    const html = text(plan(300, 200, null, gif, 'jpeg'));
    expect(html).toContain('JPEG has no transparency: transparent parts become white');
    expect(html).toContain('Only the first frame of an animated image is converted');
    expect(text(plan(300, 200, null, gif, 'png'))).not.toContain('JPEG has no transparency');
  });

  it('asks for the width while an exact width is not valid, and says a URL image is measured once fetched', () => {
    const html = (size: { width: number; height: number } | null) =>
      text(render(<PlanSummary size={size} plan={null} ai estimate={{ estimate: null, loading: false }} traits={null} resultFormat={null} onCleanup={() => undefined} />));
    expect(html({ width: 800, height: 600 })).toContain('Enter the width you want to see the result size and time.');
    expect(html(null)).toContain('known once it is fetched');
  });

  it('says when no converter runs, and while the figure loads the time is busy', () => {
    expect(text(plan(800, 600, null, jpeg, 'jpeg', estimate(null)))).toContain('No converter is running right now');
    expect(plan(800, 600, null, jpeg, 'jpeg', { estimate: null, loading: true })).toMatch(/aria-busy="true"[^>]*data-testid="image-plan-time"/);
  });
});

describe('the options', () => {
  const options = (choices = DEFAULT_CHOICES, widthError: 'image.widthInvalid' | null = null) =>
    render(<OptionsPanel choices={choices} onChange={() => undefined} fileType="image/jpeg" widthError={widthError} onWidthBlur={() => undefined} />);

  it('offers the sizes, noise reduction, format and quality of a JPEG result, each labelled', () => {
    const html = options();
    for (const size of ['1x clean-up', '1.5x', '2x', '3x', '4x', 'Exact width']) expect(text(html)).toContain(size);
    expect(html).toMatch(/<input type="radio" class="sr-only" name="size" checked=""\/>2x<\/label>/);
    expect(html).toMatch(/<label for="([^"]+)-noise"[^>]*>Noise reduction<\/label><select id="\1-noise"/);
    expect(html).toMatch(/<label for="([^"]+)-format"[^>]*>Format<\/label><select id="\1-format"/);
    expect(html).toContain('>Quality</label>');
  });

  it('links an exact width that is out of range to its error', () => {
    const html = options({ ...DEFAULT_CHOICES, size: { kind: 'width', width: '9000' } }, 'image.widthInvalid');
    expect(html).toMatch(/aria-invalid="true" aria-describedby="([^"]+)-width-error"[^>]*data-testid="image-width"/);
    expect(html).toMatch(/<p id="[^"]+-width-error"[^>]*>Enter a whole number of pixels from 1 to 4096\.<\/p>/);
  });

  it('offers no size or noise for a classic style, and no quality for a PNG result', () => {
    const html = options({ ...DEFAULT_CHOICES, choice: 'sketch', format: 'png' });
    expect(html).not.toContain('name="size"');
    expect(html).not.toContain('Noise reduction');
    expect(html).not.toContain('>Quality</label>');
  });
});

const job = (over: Partial<ImageJobView>): ImageJobView => ({
  id: '1a2b3c4d-1111-2222-3333-444455556666',
  conversion: 'ai-2x',
  source: 'upload',
  status: 'succeeded',
  error: null,
  options: { scale: null, width: null, noise: 'auto', format: 'auto', quality: 90 },
  input: { width: 2048, height: 1536, shrunk: true },
  result: { width: 4096, height: 3072 },
  result_format: 'jpeg',
  progress: null,
  notes: [],
  credits: 1,
  created_at: '2026-11-28T14:02:00.000Z',
  finished_at: '2026-11-28T14:02:30.000Z',
  files: true,
  queue: null,
  ...over,
});

describe('the job panel', () => {
  it('shows a running job’s reported progress as a progress bar, with the spec’s wait notice', () => {
    const html = render(<JobPanel job={job({ status: 'running', progress: { done: 3, total: 12 }, queue: { position: 0, estimate_seconds: 20, estimate_range: { low: 15, high: 30 } } })} onAnother={() => undefined} />);
    expect(html).toContain(IMAGE_WAIT_NOTICE);
    expect(html).toMatch(/role="progressbar"[^>]*aria-valuenow="25"/);
  });

  it('shows the result size and format, names the download by it, and says a repeat used no credit', () => {
    const at = new Date(2026, 10, 28, 14, 2).toISOString();
    const html = render(<JobPanel job={job({ repeat: { converted_at: at } })} onAnother={() => undefined} />);
    expect(text(html)).toContain('4096 × 3072 px · JPEG');
    expect(html).toContain('download="ai-2x-1a2b3c4d.jpg"');
    expect(text(html)).toContain('You converted this image at 14:02: here it is again, no credit used');
    expect(text(render(<JobPanel job={job({ options: { scale: 3, width: null, noise: 'auto', format: 'auto', quality: 90 } })} onAnother={() => undefined} />))).toContain('AI upscale · 3x');
  });

  it('puts the before and after sizes apart, never run together', () => {
    const html = render(<Compare job={job({})} input={{ width: 512, height: 512, shrunk: false }} result={{ width: 1024, height: 1024 }} />);
    expect(html).toMatch(/<figcaption[^>]*flex-col[^>]*gap-x-8[^>]*><span>Before: 512 × 512 px<\/span><span>After: 1024 × 1024 px<\/span><\/figcaption>/);
  });
});

describe('the image tool page', () => {
  const data = fakePageData({ config: loadConfig({ NODE_ENV: 'test', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' }).public });

  it('says "Choose an image" where nothing can be dropped (touch screens) and offers dropping elsewhere, decided in CSS', async () => {
    const main = await renderMain('/tools/image', data);
    expect(main).toMatch(/<span class="[^"]*pointer-coarse:hidden[^"]*\[@media\(hover:none\)\]:hidden[^"]*"[^>]*>Drop an image here, or choose a file<\/span>/);
    expect(main).toMatch(/<span class="hidden [^"]*pointer-coarse:inline[^"]*"[^>]*>Choose an image<\/span>/);
    // No plan before an image is chosen; AI upscale is the default, 4x is one of its sizes.
    expect(main).not.toContain('data-testid="image-plan"');
    expect(main).toMatch(/<input type="radio"[^>]*name="conversion" checked="" value="ai-2x"/);
    expect(main).not.toContain('value="ai-4x"');
  });
});

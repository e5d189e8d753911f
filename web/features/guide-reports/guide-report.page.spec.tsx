import type { PageData } from 'src/contracts/page-data';
import { fakePageData } from 'test/support/fake-page-data';
import { renderMain } from 'test/support/page-match';

const withGuide = (has_video: boolean): PageData => ({ ...fakePageData(), guideReports: { page: async (number) => ({ number, title: 'The Locked Observatory', has_video }) } });

describe('the guide report form', () => {
  it('offers "The video does not match" on a guide with a video', async () => {
    const main = await renderMain('/levels/27/report', withGuide(true));
    expect(main).toContain('value="video_mismatch"');
    expect(main).toContain('The video does not match');
    expect(main).toContain('value="wrong_step"');
  });

  it('leaves it out on a guide without a video, and keeps the other kinds', async () => {
    const main = await renderMain('/levels/27/report', withGuide(false));
    expect(main).not.toContain('video_mismatch');
    expect(main).not.toContain('The video does not match');
    expect(main).toContain('value="wrong_step"');
    expect(main).toContain('value="other"');
  });
});

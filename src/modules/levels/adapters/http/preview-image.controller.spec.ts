import { errorOf, useControllers } from 'src/platform/http/testing/controller-harness';
import { PreviewImageService } from '../../application/preview-image.service';
import { LevelRepository } from '../../domain/level-repository.port';
import { PreviewImageRenderer } from '../../domain/preview-image-renderer.port';
import { FakePreviewImageRenderer } from '../../testing/fake-preview-image-renderer';
import { aLevel, InMemoryLevelRepository } from '../../testing/in-memory-level-repository';
import { PreviewImageController } from './preview-image.controller';

describe('PreviewImageController (in process)', () => {
  let renderer: FakePreviewImageRenderer;
  beforeEach(() => {
    renderer = new FakePreviewImageRenderer();
  });
  const api = useControllers(() => ({
    controllers: [PreviewImageController],
    providers: [PreviewImageService, { provide: PreviewImageRenderer, useValue: renderer }, { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(27, { difficulty: 'hard' })]) }],
  }));

  it("serves a guide's preview as a PNG kept a day, rendered once, showing no spoiler", async () => {
    for (let i = 0; i < 2; i++) {
      const image = await api.inject({ method: 'GET', url: '/og/levels/27.png' });
      expect([image.statusCode, image.headers['content-type'], image.headers['cache-control']]).toEqual([200, 'image/png', 'public, max-age=86400']);
    }
    expect(renderer.rendered).toEqual([{ heading: 'Level 27', difficulty: 'hard', gameName: expect.any(String), siteName: expect.any(String) }]);
    expect((await api.inject({ method: 'GET', url: '/og/default.png' })).statusCode).toBe(200);
  });

  it('answers 404 for a level without a guide and for any other file name', async () => {
    for (const file of ['28.png', '27.jpg', '027.png', '27.png.png', '..%2F27.png']) {
      const missing = await api.inject({ method: 'GET', url: `/og/levels/${file}` });
      expect([file, missing.statusCode, errorOf(missing).code]).toEqual([file, 404, 'REQUEST.NOT_FOUND']);
    }
    expect(renderer.rendered).toEqual([]);
  });
});

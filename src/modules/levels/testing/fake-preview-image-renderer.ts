import { PreviewImageRenderer, type PreviewCard } from '../domain/preview-image-renderer.port';

/** Preview images for specs: the card as bytes behind a PNG signature, counting the renders. SharpPreviewImageRenderer draws the real ones. */
export class FakePreviewImageRenderer extends PreviewImageRenderer {
  readonly rendered: PreviewCard[] = [];

  async render(card: PreviewCard): Promise<Buffer> {
    this.rendered.push(card);
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(JSON.stringify(card))]);
  }
}

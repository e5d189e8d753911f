import { loadConfig } from 'src/config/app-config';
import { THEME_COLOR, webManifest } from './web-manifest';

describe('the web app manifest', () => {
  it('names the installed app after the site settings and starts it standalone at the home page', () => {
    const manifest = webManifest(loadConfig({ SITE_NAME: 'Door Help', SITE_SHORT_NAME: 'Doors', GAME_NAME: 'Locked Rooms' }));
    expect(manifest).toMatchObject({ id: '/', name: 'Door Help', short_name: 'Doors', start_url: '/', scope: '/', display: 'standalone', theme_color: THEME_COLOR });
    expect(manifest.description).toContain('Locked Rooms');
  });

  it('offers the icons Chromium needs to install it: PNGs of 192 and 512 px, and a maskable one', () => {
    const { icons } = webManifest(loadConfig({}));
    expect(icons).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }),
        expect.objectContaining({ src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' }),
        expect.objectContaining({ sizes: '512x512', purpose: 'maskable' }),
      ]),
    );
  });
});

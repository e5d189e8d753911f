import { loadConfig } from 'src/config/app-config';
import { interpolate } from 'web/i18n/i18n';
import en from 'web/i18n/messages/en';
import { footerLevelLinks, legalLinks, menuItems } from './menu';

const t = (key: keyof typeof en, values?: Record<string, string | number>) => interpolate(en[key], values);

/** Outside the local try-out (which turns accounts and payments on when nothing is configured). */
const OFF = { NODE_ENV: 'test' };

describe('menus', () => {
  it('hides download, FAQ, media and blog from the header unless configured', () => {
    expect(menuItems(loadConfig(OFF).public, t).map((i) => i.to)).toEqual(['/', '/levels']);
    expect(menuItems(loadConfig({ ...OFF, MENU_ENTRIES: 'blog,faq' }).public, t).map((i) => i.to)).toEqual(['/', '/levels', '/faq', '/blog']);
    expect(menuItems(loadConfig({ ...OFF, MENU_ENTRIES: 'media,download,faq,blog' }).public, t).map((i) => i.label)).toEqual([
      'Home',
      'Levels',
      'Download',
      'FAQ',
      'Media',
      'Blog',
    ]);
  });

  it('adds the image tool and Pricing to the header only when payments are on', () => {
    const paths = (env: Record<string, string>) => menuItems(loadConfig({ ...OFF, ...env }).public, t).map((i) => i.to);
    expect(paths({ HAS_LOGIN: 'true' })).not.toContain('/pricing');
    expect(paths({ HAS_LOGIN: 'true' })).not.toContain('/tools/image');
    // has_payment needs accounts too: HAS_PAYMENT alone leaves it off.
    expect(paths({ HAS_PAYMENT: 'true' })).not.toContain('/pricing');
    expect(paths({ HAS_PAYMENT: 'true' })).not.toContain('/tools/image');
    expect(menuItems(loadConfig({ HAS_PAYMENT: 'true', HAS_LOGIN: 'true', MENU_ENTRIES: 'blog' }).public, t)).toEqual([
      { to: '/', label: 'Home' },
      { to: '/levels', label: 'Levels' },
      { to: '/blog', label: 'Blog' },
      { to: '/tools/image', label: 'Image tool' },
      { to: '/pricing', label: 'Pricing' },
    ]);
  });

  it('links the refund policy only when payments are on', () => {
    expect(legalLinks(loadConfig(OFF).public, t).map((l) => l.to)).not.toContain('/refund-policy');
    expect(legalLinks(loadConfig({ HAS_PAYMENT: 'true', HAS_LOGIN: 'true' }).public, t).map((l) => l.to)).toContain('/refund-policy');
  });

  it("labels the footer's level links as the spec does", () => {
    expect(footerLevelLinks(t)).toContainEqual({ to: '/levels/233', label: 'Level 23' });
  });
});

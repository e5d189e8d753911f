import { loadConfig } from 'src/config/app-config';
import { legalLinks, menuItems } from './menu';

describe('menus', () => {
  it('hides blog and FAQ from the header unless configured', () => {
    expect(menuItems(loadConfig({}).public).map((i) => i.to)).toEqual(['/', '/levels']);
    expect(menuItems(loadConfig({ MENU_ENTRIES: 'faq,blog' }).public).map((i) => i.to)).toEqual(['/', '/levels', '/blog', '/faq']);
  });

  it('links the refund policy only when payments are on', () => {
    expect(legalLinks(loadConfig({}).public).map((l) => l.to)).not.toContain('/refund-policy');
    expect(legalLinks(loadConfig({ HAS_PAYMENT: 'true' }).public).map((l) => l.to)).toContain('/refund-policy');
  });
});

import type { PublicConfig } from 'src/contracts/public-config';

export interface MenuItem {
  to: string;
  label: string;
}

/** Header menu entries: the blog and FAQ only when configured (MENU_ENTRIES), as the spec hides them by default. */
export function menuItems(config: PublicConfig): MenuItem[] {
  return [
    { to: '/', label: 'Home' },
    { to: '/levels', label: 'Levels' },
    ...(config.menu.blog ? [{ to: '/blog', label: 'Blog' }] : []),
    ...(config.menu.faq ? [{ to: '/faq', label: 'FAQ' }] : []),
  ];
}

/** The refund policy is linked only when payments are on. */
export function legalLinks(config: PublicConfig): MenuItem[] {
  return [
    { to: '/terms-of-service', label: 'Terms of Service' },
    { to: '/privacy-policy', label: 'Privacy Policy' },
    ...(config.settings.has_payment ? [{ to: '/refund-policy', label: 'Refund Policy' }] : []),
  ];
}

/** The footer's fixed level links (spec: Level 5 goes to 27, Level 6 to 33, Level 21 to 136, Level 23 to 233). */
export const FOOTER_LEVEL_LINKS: MenuItem[] = [
  { to: '/levels/27', label: 'Level 5' },
  { to: '/levels/33', label: 'Level 6' },
  { to: '/levels/136', label: 'Level 21' },
  { to: '/levels/233', label: 'Level 23' },
];

export const FOOTER_SUPPORT_LINKS: MenuItem[] = [
  { to: '/levels', label: 'All levels' },
  { to: '/faq', label: 'FAQ' },
];

import type { PublicConfig } from 'src/contracts/public-config';
import type { Translate } from 'web/i18n/i18n';

export interface MenuItem {
  to: string;
  label: string;
}

/**
 * Header menu entries: download, FAQ, media and blog only when configured (MENU_ENTRIES), as the
 * spec hides them by default; the image tool and pricing only with payments on (has_payment).
 */
export function menuItems(config: PublicConfig, t: Translate): MenuItem[] {
  const { menu } = config;
  return [
    { to: '/', label: t('menu.home') },
    { to: '/levels', label: t('menu.levels') },
    ...(menu.download ? [{ to: '/download', label: t('menu.download') }] : []),
    ...(menu.faq ? [{ to: '/faq', label: t('menu.faq') }] : []),
    ...(menu.media ? [{ to: '/media', label: t('menu.media') }] : []),
    ...(menu.blog ? [{ to: '/blog', label: t('menu.blog') }] : []),
    ...(config.settings.has_payment
      ? [
          { to: '/tools/image', label: t('menu.imageTool') },
          { to: '/pricing', label: t('menu.pricing') },
        ]
      : []),
  ];
}

/** The refund policy is linked only when payments are on. */
export function legalLinks(config: PublicConfig, t: Translate): MenuItem[] {
  return [
    { to: '/terms-of-service', label: t('legal.terms') },
    { to: '/privacy-policy', label: t('legal.privacy') },
    ...(config.settings.has_payment ? [{ to: '/refund-policy', label: t('legal.refund') }] : []),
  ];
}

/** The footer's fixed level links (spec: Level 5 goes to 27, Level 6 to 33, Level 21 to 136, Level 23 to 233). */
export const footerLevelLinks = (t: Translate): MenuItem[] =>
  [
    [27, 5],
    [33, 6],
    [136, 21],
    [233, 23],
  ].map(([level, label]) => ({ to: `/levels/${level}`, label: t('footer.levelLink', { level: label! }) }));

export const footerSupportLinks = (t: Translate): MenuItem[] => [
  { to: '/levels', label: t('footer.allLevels') },
  { to: '/faq', label: t('menu.faq') },
];

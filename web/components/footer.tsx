import type { PublicConfig } from 'src/contracts/public-config';
import { Link } from 'web/lib/router/router';
import { useT, type MessageKey } from 'web/i18n/i18n';
import { footerLevelLinks, footerSupportLinks, legalLinks, type MenuItem } from 'web/lib/menu';
import { useSiteConfig } from 'web/lib/root-data';
import { Logo } from './logo';

export function Footer() {
  const config = useSiteConfig();
  const { siteName, gameName } = config;
  const t = useT();
  return (
    <footer className="site-footer">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <div className="footer-main">
          <div className="max-w-md">
            <Link to="/" className="flex items-center gap-2.5 font-bold tracking-tight">
              <Logo className="size-7" />
              <span>{siteName}</span>
            </Link>
            <p className="footer-about">{t('footer.about', { game: gameName })}</p>
            <SocialLinks />
          </div>
          <div className="footer-columns">
            <FooterColumn title={t('footer.levels')} links={footerLevelLinks(t)} />
            <FooterColumn title={t('footer.support')} links={footerSupportLinks(t)} />
            {Object.entries(config.footerGroups).map(([title, links]) => (
              <FooterColumn key={title} title={title} links={links.map(([label, to]) => ({ label, to }))} />
            ))}
            <FooterColumn title={t('footer.legal')} links={legalLinks(config, t)} />
          </div>
        </div>
        <div className="footer-notice">
          <p data-testid="disclaimer">{t('footer.disclaimer', { site: siteName, game: gameName })}</p>
          <p className="mt-2">{t('footer.copyright', { year: new Date().getFullYear(), site: siteName })}</p>
        </div>
      </div>
    </footer>
  );
}

const SOCIAL: { key: keyof PublicConfig['social']; label: MessageKey }[] = [
  { key: 'email', label: 'footer.email' },
  { key: 'x', label: 'footer.x' },
  { key: 'discord', label: 'footer.discord' },
  { key: 'github', label: 'footer.github' },
  { key: 'coffee', label: 'footer.coffee' },
  { key: 'twitch', label: 'footer.twitch' },
];

/** Contact and social links: only the configured ones. */
function SocialLinks() {
  const { social } = useSiteConfig();
  const t = useT();
  const links = SOCIAL.filter(({ key }) => social[key]);
  if (!links.length) return null;
  return (
    <ul aria-label={t('footer.social')} className="mt-4 flex flex-wrap gap-x-4 gap-y-2 text-sm">
      {links.map(({ key, label }) => (
        <li key={key}>
          <a
            href={key === 'email' ? `mailto:${social.email}` : social[key]}
            rel="noopener me"
            className="font-medium text-gray-600 hover:text-primary-700 dark:text-gray-400 dark:hover:text-primary-400"
          >
            {t(label)}
          </a>
        </li>
      ))}
    </ul>
  );
}

function FooterColumn({ title, links }: { title: string; links: MenuItem[] }) {
  return (
    <nav aria-label={title}>
      <h2 className="footer-heading">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to + link.label}>
            <Link to={link.to} className="footer-link">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

import { usePageI18n, type PageMessageKey } from 'web/i18n/page-messages';
import { formatInteger } from 'src/contracts/number-format';
import { useSiteConfig } from 'web/lib/root-data';
import { Icon } from './icons';
import { JsonLd } from './level-bits';

const FAQ_KEYS: [PageMessageKey, PageMessageKey][] = [
  ['home.faqWhatQ', 'home.faqWhatA'],
  ['home.faqFindQ', 'home.faqFindA'],
  ['home.faqSpoilQ', 'home.faqSpoilA'],
  ['home.faqCoveredQ', 'home.faqCoveredA'],
  ['home.faqMatchQ', 'home.faqMatchA'],
  ['home.faqAccountQ', 'home.faqAccountA'],
  ['home.faqOfficialQ', 'home.faqOfficialA'],
  ['home.faqDownloadQ', 'home.faqDownloadA'],
];

/**
 * The eight questions players ask (spec: the home page's FAQ), answered for this unofficial guide:
 * the one source of the home page's FAQ and of /faq, with its FAQPage structured data for `url`.
 */
export function FaqList({ url }: { url: string }) {
  const { gameName, siteName, levels } = useSiteConfig();
  const { t, tag } = usePageI18n();
  const values = { game: gameName, site: siteName, claimed: formatInteger(levels.claimed, tag) };
  const faq = FAQ_KEYS.map(([q, a]) => ({ q: t(q, values), a: t(a, values) }));
  return (
    <>
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'FAQPage',
          url,
          mainEntity: faq.map((item) => ({ '@type': 'Question', name: item.q, acceptedAnswer: { '@type': 'Answer', text: item.a } })),
        }}
      />
      <div className="mt-8 divide-y divide-gray-200 rounded-2xl border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
        {faq.map((item) => (
          <details key={item.q} className="group p-5">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold [&::-webkit-details-marker]:hidden">
              {item.q}
              <Icon name="chevronDown" className="size-5 shrink-0 text-gray-400 transition group-open:rotate-180" />
            </summary>
            <p className="mt-3 leading-7 text-gray-600 dark:text-gray-400">{item.a}</p>
          </details>
        ))}
      </div>
    </>
  );
}

const CRAWLER = /bot|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|lighthouse|whatsapp|telegram/i;

/** Crawlers and link previewers get the complete document in one go instead of a streamed shell. */
export const isCrawler = (userAgent: string | undefined) => !!userAgent && CRAWLER.test(userAgent);

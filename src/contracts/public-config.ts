/** The part of the configuration the browser may see. It reaches the page once, in the root data. */
export interface PublicConfig {
  siteName: string;
  gameName: string;
  siteUrl: string;
  /** The spec's public settings, named as the spec names them. */
  settings: {
    has_login: boolean;
    email_login: boolean;
    google_oauth_login: boolean;
    has_payment: boolean;
  };
  /** Credits of the free trial a confirmed account gets (0: none, or payments off). */
  trialCredits: number;
  /** Payments are on and go to the local test checkout (no Stripe key): every money page says "test mode". */
  testPayments: boolean;
  /** Footer link groups from config: group name to [label, href] pairs. */
  footerGroups: Record<string, [string, string][]>;
  /** Menu entries that are hidden unless configured. */
  menu: { download: boolean; faq: boolean; media: boolean; blog: boolean };
  appStores: { appStore?: string; playStore?: string };
  social: {
    email?: string;
    x?: string;
    discord?: string;
    github?: string;
    coffee?: string;
    twitch?: string;
  };
  analyticsId?: string;
  levels: {
    /** Highest number the header search accepts (spec: 635). */
    searchMax: number;
    /** Range the level-search copy promises (spec: 1 to 231). */
    searchableMax: number;
    /** What the home copy claims (spec: over 1000). */
    claimed: number;
  };
}

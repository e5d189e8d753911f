/** "Download my data": everything the site holds about the account, as one JSON file (GDPR article 20). */
export interface AccountExport {
  exported_at: string;
  /** What stays after deletion, and why (the same words as /account). */
  kept_after_deletion: string;
  account: { email: string; created_at: string; confirmed_at: string | null; sign_in_methods: { password: boolean; google: boolean } };
  /** Sessions without their secrets (only a hash is ever stored, and not exported). */
  sessions: { created_at: string; last_used_at: string; expires_at: string; revoked_at: string | null }[];
  mail_preferences: { low_balance: boolean; expiry: boolean };
  progress: { level: number; state: string; changed_at: string }[];
  credits: {
    lots: { source: string; description: string; granted: number; remaining: number; expires_at: string; created_at: string }[];
    history: { kind: string; credits: number; description: string; created_at: string }[];
  };
  orders: {
    number: string;
    kind: string;
    description: string;
    status: string;
    amount_cents: number;
    refunded_cents: number;
    credits: number;
    payment_method: string | null;
    created_at: string;
    paid_at: string | null;
    refunds: { amount_cents: number; created_at: string }[];
  }[];
  /** Image jobs; `files`: links to the files still kept (deleted after the retention period). */
  image_jobs: { id: string; conversion: string; source: string; source_url: string | null; status: string; created_at: string; finished_at: string | null; files: string[] }[];
  /** Reminders mailed (one per event). */
  reminders_sent: { kind: string; created_at: string }[];
  /** Guide reports and helpfulness votes are anonymous (counted per browser, never per account): none is linked to this account. */
  guide_reports_and_votes: string;
}

export const KEPT_AFTER_DELETION =
  'Deleting your account removes it, its sessions, progress, credits, image jobs and files, and your address from our mail queue. ' +
  'The law requires us to keep payment records: your orders stay with their amounts, dates and refunds under a random id that is not linked to any address, ' +
  'and whether this address had a free trial is kept only as a one-way hash, so a new account with it gets no second trial.';

import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { cardClass, secondaryButtonClass } from 'web/components/account-ui';
import { usePageI18n } from 'web/i18n/page-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { notify } from 'web/lib/toasts';
import { inputClass, newKey } from 'web/features/ops/admin-orders-common';

/** Credits for the buyer (or another account), with the reason they will see in their history. */
export function GrantForm({ email, onDone }: { email: string | null; onDone: () => void }) {
  const { t } = usePageI18n();
  const id = useId();
  const [key, setKey] = useState(newKey);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const grant = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setProblem(null);
    try {
      const body = {
        email: String(form.get('email') ?? ''),
        credits: Number(form.get('credits')),
        validity_days: Number(form.get('validity_days')),
        reason: String(form.get('reason') ?? ''),
      };
      const { data } = await apiRequest<{ granted: boolean }>(t, 'POST', '/api/v1/admin/credits', body, { headers: { 'idempotency-key': key } });
      notify(data.granted ? `Granted ${body.credits} credits to ${body.email}` : 'Already granted', 'success');
      setKey(newKey());
      onDone();
    } catch (error) {
      if (error instanceof ApiError) setProblem(error.message);
    } finally {
      setBusy(false);
    }
  };
  const field = (name: string, label: string, input: ReactNode) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      {input}
    </div>
  );
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Grant credits
      </h2>
      <form onSubmit={(event) => void grant(event)} className="mt-3 space-y-3">
        {field('email', 'Account email', <input id={`${id}-email`} name="email" type="email" required maxLength={256} defaultValue={email ?? ''} className={inputClass} />)}
        <div className="grid grid-cols-2 gap-3">
          {field('credits', 'Credits', <input id={`${id}-credits`} name="credits" type="number" required min={1} max={1_000_000} defaultValue={10} className={inputClass} />)}
          {field('validity_days', 'Valid for (days)', <input id={`${id}-validity_days`} name="validity_days" type="number" required min={1} max={3650} defaultValue={365} className={inputClass} />)}
        </div>
        {field('reason', 'Reason (the account sees it)', <input id={`${id}-reason`} name="reason" required minLength={3} maxLength={200} className={inputClass} />)}
        {problem && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
        <button type="submit" disabled={busy} className={`${secondaryButtonClass} w-full`}>
          Grant credits
        </button>
      </form>
    </section>
  );
}

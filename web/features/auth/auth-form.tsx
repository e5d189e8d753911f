// First: zod must be jitless before any schema is built (see the module).
import 'web/lib/zod-jitless';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { Seo } from 'web/components/seo';
import { ApiError } from 'web/lib/api';
import { notify } from 'web/lib/toasts';

/** The pieces every account form shares: validation, fields, the card they sit in. */

/** Form validation waits this long after the last keystroke (spec: 300 ms). */
const VALIDATION_DEBOUNCE_MS = 300;

type Fields = Record<string, string>;

/**
 * Field errors from the shared zod schema (the server checks the same rules), shown 300 ms after
 * the visitor stops typing, and all at once on submit.
 */
export function useValidatedForm(schema: z.ZodType, initial: Fields) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Fields>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const check = (next: Fields, only?: Record<string, boolean>) => {
    const parsed = schema.safeParse(next);
    const found: Fields = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (!(field in found) && (!only || only[field])) found[field] = issue.message;
      }
    }
    setErrors(found);
    return parsed.success;
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    values,
    errors,
    field(name: string) {
      return {
        name,
        value: values[name] ?? '',
        'aria-invalid': errors[name] ? true : undefined,
        'aria-describedby': errors[name] ? `${name}-error` : undefined,
        onChange: (event: { target: { value: string } }) => {
          const next = { ...values, [name]: event.target.value };
          const nextTouched = { ...touched, [name]: true };
          setValues(next);
          setTouched(nextTouched);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => check(next, nextTouched), VALIDATION_DEBOUNCE_MS);
        },
      };
    },
    busy,
    /**
     * The form's submit handler: validates everything, then runs `send` (the button stays disabled
     * meanwhile). The server's errors show in a red toast unless `onError` handled them.
     */
    onSubmit(send: () => Promise<void>, onError?: (error: ApiError) => boolean) {
      return async (event: FormEvent) => {
        event.preventDefault();
        clearTimeout(timer.current);
        if (!check(values)) return;
        setBusy(true);
        try {
          await send();
        } catch (error) {
          if (error instanceof ApiError && !onError?.(error)) notify(error.message, 'error');
        } finally {
          setBusy(false);
        }
      };
    },
  };
}

export const inputClass =
  'mt-1 block w-full rounded-xl border border-gray-300 bg-white px-3.5 py-2.5 text-base shadow-sm outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 aria-invalid:border-red-500 dark:border-gray-700 dark:bg-gray-900';
export const buttonClass =
  'inline-flex w-full items-center justify-center rounded-full bg-primary-700 px-5 py-2.5 font-semibold text-white shadow-sm transition hover:bg-primary-800 disabled:opacity-60 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400';
export const linkClass = 'font-medium text-primary-700 hover:underline dark:text-primary-400';

export function Field({ label, error, id, children }: { label: string; error?: string; id: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <Seo title={title} noindex />
      <div className="rounded-3xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8 dark:border-gray-800 dark:bg-gray-900/60">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

/** A new password and its confirmation (sign-up, password reset). */
export function NewPasswordFields({ form, label, confirmLabel }: { form: ReturnType<typeof useValidatedForm>; label: string; confirmLabel: string }) {
  return (
    <>
      <Field id="password" label={label} error={form.errors.password}>
        <input id="password" type="password" required minLength={8} autoComplete="new-password" className={inputClass} {...form.field('password')} />
      </Field>
      <Field id="password_confirmation" label={confirmLabel} error={form.errors.password_confirmation}>
        <input id="password_confirmation" type="password" required autoComplete="new-password" className={inputClass} {...form.field('password_confirmation')} />
      </Field>
    </>
  );
}

/** The token of an emailed link: after '#', so it never reaches the server's logs. */
export const tokenFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

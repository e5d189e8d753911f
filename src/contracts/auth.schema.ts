import { z } from 'zod';

/**
 * The account forms' rules, shared by the browser (field messages as the visitor types) and the
 * server (which never trusts the form). Spec: email required, type email, at most 256 characters;
 * password required, at least 8 characters at sign-up. The upper password bound keeps hashing cheap.
 */
export const EMAIL_MAX = 256;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .pipe(z.email('Please enter a valid email address'));

const newPassword = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

const withConfirmation = <T extends { password: string; password_confirmation: string }>(value: T, ctx: z.RefinementCtx) => {
  if (value.password !== value.password_confirmation) {
    ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'Passwords do not match' });
  }
};

export const signUpSchema = z
  .object({ email: emailField, password: newPassword, password_confirmation: z.string({ error: 'Please confirm the password' }).max(PASSWORD_MAX) })
  .strict()
  .superRefine(withConfirmation);
export type SignUpInput = z.infer<typeof signUpSchema>;

export const signInSchema = z
  .object({
    email: emailField,
    password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX, 'Invalid email or password'),
  })
  .strict();
export type SignInInput = z.infer<typeof signInSchema>;

export const emailOnlySchema = z.object({ email: emailField }).strict();

/** A blank or malformed token is not a form error: the server answers 'This link is invalid or has expired.' */
const linkToken = z.string().max(128);
export const linkTokenSchema = z.object({ token: linkToken }).strict();

const newPasswordFields = {
  password: newPassword,
  password_confirmation: z.string({ error: 'Please confirm the password' }).max(PASSWORD_MAX),
};
/** The password reset form (the token comes from the link). */
export const newPasswordSchema = z.object(newPasswordFields).strict().superRefine(withConfirmation);

export const passwordResetSchema = z
  .object({ token: linkToken, ...newPasswordFields })
  .strict()
  .superRefine(withConfirmation);
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

/** PUT /api/v1/account/password: the current password (not needed right after a sign-in by link) and the new one, twice. */
export const passwordChangeSchema = z
  .strictObject({ current_password: z.string().max(PASSWORD_MAX).optional(), password: newPassword, password_confirmation: z.string({ error: 'Please confirm the password' }).max(PASSWORD_MAX) })
  .superRefine(withConfirmation);
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

/** DELETE /api/v1/account: the password, or nothing right after a sign-in by an emailed link. */
export const accountDeletionSchema = z.strictObject({ password: z.string().max(PASSWORD_MAX).optional() });

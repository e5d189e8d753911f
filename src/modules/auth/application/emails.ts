import { layoutMessage, type MailContext } from 'src/platform/mail/mail-layout';

/** The account emails, text and HTML. Links carry their token after '#', so it never reaches a server log. */
type EmailContext = MailContext;
const message = (ctx: EmailContext, subject: string, paragraphs: string[], action?: { label: string; url: string }) => layoutMessage(ctx, subject, paragraphs, action);

export const confirmationEmail = (ctx: EmailContext, url: string) =>
  message(
    ctx,
    `Confirm your email for ${ctx.siteName}`,
    [`Welcome to ${ctx.siteName}! Please confirm that ${ctx.to} is your email address.`, 'The link works once, within 24 hours.'],
    { label: 'Confirm my email', url },
  );

export const passwordResetEmail = (ctx: EmailContext, url: string) =>
  message(
    ctx,
    `Reset your ${ctx.siteName} password`,
    [
      'Someone (hopefully you) asked to reset the password of this account.',
      'The link works once, within one hour. If you did not ask, ignore this email: your password stays as it is.',
    ],
    { label: 'Choose a new password', url },
  );

/** Sent instead of a second account: the form answers the same either way, so no one learns who has an account. */
export const accountExistsEmail = (ctx: EmailContext, signInUrl: string, resetUrl: string) =>
  message(
    ctx,
    `You already have a ${ctx.siteName} account`,
    [
      `Someone tried to sign up with ${ctx.to}, which already has an account.`,
      `If it was you, sign in at ${signInUrl}, or reset your password at ${resetUrl}. If not, ignore this email.`,
    ],
  );

/** The way in while password sign-in is paused for the account (too many wrong passwords this hour). */
export const signInLinkEmail = (ctx: EmailContext, url: string) =>
  message(
    ctx,
    `Your ${ctx.siteName} sign-in link`,
    [
      `Someone (hopefully you) asked for a link to sign in to ${ctx.siteName} without a password.`,
      'The link works once, within 15 minutes. If you did not ask, ignore this email: nobody can use it without your inbox.',
    ],
    { label: 'Sign me in', url },
  );

import { layoutMessage, type MailContext } from 'src/platform/mail/mail-layout';

/** The reminder mails; `unsubscribe` is the one-click link (also sent as List-Unsubscribe). */
interface ReminderContext extends MailContext {
  site: string;
  unsubscribe: string;
  /** The unsubscribe page for people (the header's URL takes a POST). */
  unsubscribePage: string;
}

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

function reminder(ctx: ReminderContext, subject: string, paragraphs: string[], action: { label: string; url: string }) {
  return { ...layoutMessage(ctx, subject, paragraphs, action, { text: 'Stop these reminders', url: ctx.unsubscribePage }), listUnsubscribe: ctx.unsubscribe };
}

export const lowBalanceEmail = (ctx: ReminderContext, balance: number) =>
  reminder(
    ctx,
    `You have ${credits(balance)} left on ${ctx.siteName}`,
    [`Your balance is down to ${credits(balance)}. Credits pay for the image tool: 1 credit per image.`, 'A credit pack or a donation tops it up; this reminder comes once until your balance rises again.'],
    { label: 'See credit packs', url: `${ctx.site}/pricing` },
  );

export const expiryEmail = (ctx: ReminderContext, lot: { remaining: number; expiresAt: Date; description: string }) =>
  reminder(
    ctx,
    `${credits(lot.remaining)} expire on ${lot.expiresAt.toISOString().slice(0, 10)}`,
    [
      `${credits(lot.remaining)} of "${lot.description}" expire on ${lot.expiresAt.toUTCString().replace(/:\d\d GMT$/, ' UTC')}.`,
      'Use them before then in the image tool; expired credits cannot be restored.',
    ],
    { label: 'Open the image tool', url: `${ctx.site}/tools/image` },
  );

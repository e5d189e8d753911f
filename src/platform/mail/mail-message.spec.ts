import { mailMessageSchema } from './mail-message';

const mail = {
  to: 'player@example.com',
  subject: 'Confirm your email',
  text: 'Open https://guides.example/auth/confirm#token=abc',
  html: '<p>Open the link</p>',
};

describe('the caps of a mail message', () => {
  it('accepts a valid message', () => {
    expect(mailMessageSchema.parse(mail)).toEqual(mail);
  });

  it.each([
    ['a bad address', { ...mail, to: 'not an address' }, 'to'],
    ['a subject with a line break (a header injection)', { ...mail, subject: 'Hi\r\nBcc: everyone@example.com' }, 'subject'],
    ['a subject over 200 characters', { ...mail, subject: 'x'.repeat(201) }, 'subject'],
    ['a text over 100 000 characters', { ...mail, text: 'x'.repeat(100_001) }, 'text'],
    ['a missing html', { to: mail.to, subject: mail.subject, text: mail.text }, 'html'],
  ])('refuses %s', (_, data, field) => {
    const result = mailMessageSchema.safeParse(data);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });
});

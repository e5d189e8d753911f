import type { z } from 'zod';
import {
  EMAIL_MAX,
  emailField,
  emailOnlySchema,
  linkTokenSchema,
  newPasswordSchema,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordResetSchema,
  signInSchema,
  signUpSchema,
} from './auth.schema';

/** The first message of each field, as the forms show them. */
function messages(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join('.') || '(form)'] ??= issue.message;
  return out;
}

const PASSWORD = 'abcdefgh';
const signUp = (overrides: Record<string, unknown> = {}) => ({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD, ...overrides });
/** An otherwise valid address of exactly `length` characters (zod's email rule sets no part lengths). */
const emailOfLength = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;

describe('the account form rules', () => {
  describe('email', () => {
    it.each([
      ['missing', undefined, 'Email is required'],
      ['empty', '', 'Email is required'],
      ['blank', '   ', 'Email is required'],
      ['not a string', 42, 'Email is required'],
      ['invalid', 'player', 'Please enter a valid email address'],
      ['without a domain', 'player@', 'Please enter a valid email address'],
      ['with a space inside', 'pla yer@example.com', 'Please enter a valid email address'],
      ['too long', `${'a'.repeat(EMAIL_MAX)}@example.com`, `Email must be at most ${EMAIL_MAX} characters`],
    ])('refuses an email that is %s', (_label, email, message) => {
      expect(messages(signUpSchema, signUp({ email }))).toEqual({ email: message });
      expect(messages(signInSchema, { email, password: 'x' })).toEqual({ email: message });
      expect(messages(emailOnlySchema, { email })).toEqual({ email: message });
    });

    it('says "at most 256 characters" exactly', () => {
      expect(EMAIL_MAX).toBe(256);
      expect(messages(emailOnlySchema, { email: `${'a'.repeat(300)}@example.com` })).toEqual({ email: 'Email must be at most 256 characters' });
    });

    it('accepts 256 characters and refuses 257', () => {
      const at256 = emailOfLength(256);
      expect(at256).toHaveLength(256);
      expect(emailField.safeParse(at256)).toMatchObject({ success: true, data: at256 });
      const at257 = `a${at256}`;
      expect(messages(emailOnlySchema, { email: at257 })).toEqual({ email: 'Email must be at most 256 characters' });
    });

    it('trims the address (the server lower-cases it)', () => {
      expect(emailField.parse('  Player@Example.com \n')).toBe('Player@Example.com');
      // Surrounding spaces do not count towards the limit.
      const at256 = emailOfLength(256);
      expect(emailField.safeParse(`  ${at256}  `)).toMatchObject({ success: true, data: at256 });
    });
  });

  describe('sign-up', () => {
    it('accepts a valid form', () => {
      expect(signUpSchema.parse(signUp())).toEqual(signUp());
    });

    it.each([
      ['missing', undefined, 'Password is required'],
      ['empty', '', 'Password is required'],
      ['7 characters', 'abcdefg', `Password must be at least ${PASSWORD_MIN} characters`],
      ['too long', 'a'.repeat(PASSWORD_MAX + 1), `Password must be at most ${PASSWORD_MAX} characters`],
    ])('refuses a password that is %s', (_label, password, message) => {
      expect(messages(signUpSchema, signUp({ password, password_confirmation: password }))).toMatchObject({ password: message });
    });

    it('needs at least 8 characters, exactly', () => {
      expect(PASSWORD_MIN).toBe(8);
      expect(messages(signUpSchema, signUp({ password: '1234567', password_confirmation: '1234567' }))).toEqual({
        password: 'Password must be at least 8 characters',
      });
      expect(messages(signUpSchema, signUp({ password: '12345678', password_confirmation: '12345678' }))).toEqual({});
      expect(messages(signUpSchema, signUp({ password: 'a'.repeat(256), password_confirmation: 'a'.repeat(256) }))).toEqual({});
    });

    it('needs the confirmation to match', () => {
      expect(messages(signUpSchema, signUp({ password_confirmation: 'abcdefgH' }))).toEqual({ password_confirmation: 'Passwords do not match' });
      expect(messages(signUpSchema, signUp({ password_confirmation: '' }))).toEqual({ password_confirmation: 'Passwords do not match' });
      expect(messages(signUpSchema, signUp({ password_confirmation: undefined }))).toEqual({
        password_confirmation: 'Please confirm the password',
      });
    });

    it('refuses unknown fields', () => {
      expect(signUpSchema.safeParse(signUp({ admin: true })).success).toBe(false);
    });
  });

  describe('sign-in', () => {
    it('needs a password, of any length up to the limit', () => {
      expect(messages(signInSchema, { email: 'player@example.com' })).toEqual({ password: 'Password is required' });
      expect(messages(signInSchema, { email: 'player@example.com', password: '' })).toEqual({ password: 'Password is required' });
      expect(messages(signInSchema, { email: 'player@example.com', password: 'a' })).toEqual({});
      // Too long is answered like a wrong password: no hint about the rules.
      expect(messages(signInSchema, { email: 'player@example.com', password: 'a'.repeat(PASSWORD_MAX + 1) })).toEqual({
        password: 'Invalid email or password',
      });
    });

    it('does not trim the password', () => {
      expect(signInSchema.parse({ email: 'player@example.com', password: ' secret ' }).password).toBe(' secret ');
    });

    it('refuses unknown fields', () => {
      expect(signInSchema.safeParse({ email: 'player@example.com', password: 'x', remember: true }).success).toBe(false);
    });
  });

  describe('password reset', () => {
    it('applies the sign-up password rules and the confirmation', () => {
      expect(messages(newPasswordSchema, { password: 'short', password_confirmation: 'short' })).toEqual({
        password: 'Password must be at least 8 characters',
      });
      expect(messages(newPasswordSchema, { password: PASSWORD, password_confirmation: 'different' })).toEqual({
        password_confirmation: 'Passwords do not match',
      });
      expect(messages(passwordResetSchema, { token: 't', password: PASSWORD, password_confirmation: 'different' })).toEqual({
        password_confirmation: 'Passwords do not match',
      });
      expect(messages(passwordResetSchema, { token: 't', password: PASSWORD, password_confirmation: PASSWORD })).toEqual({});
    });

    it('leaves a blank token to the server (invalid link) but caps its length', () => {
      expect(linkTokenSchema.safeParse({ token: '' }).success).toBe(true);
      expect(linkTokenSchema.safeParse({ token: 'a'.repeat(128) }).success).toBe(true);
      expect(linkTokenSchema.safeParse({ token: 'a'.repeat(129) }).success).toBe(false);
    });
  });
});

/** An account. Signed in means a live session of a user; the email is the user's identity on screen. */
export class User {
  id!: string;
  /** Lower-cased and trimmed: one account per address whatever its spelling. */
  email!: string;
  /** Argon2id; null for an account created through Google that never set a password. */
  passwordHash!: string | null;
  /** When the owner proved the address (the confirmation link, a reset, or Google's verified email). */
  confirmedAt!: Date | null;
  /** The Google account linked to this one (OpenID Connect `sub`). */
  googleSubject!: string | null;
  createdAt!: Date;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** What the browser gets about the signed-in user (GET /api/v1/user_info); later issues add credits. */
export interface UserView {
  email: string;
  confirmed: boolean;
  admin: boolean;
  created_at: string;
}

export function toUserView(user: User, admin: boolean): UserView {
  return {
    email: user.email,
    confirmed: user.confirmedAt !== null,
    admin,
    created_at: user.createdAt.toISOString(),
  };
}

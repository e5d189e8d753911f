import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A confirmed account with a live session, written straight into the test database: for tests
 * about something else that need an admin (the sign-up flow itself is tested in auth.e2e-spec).
 * Returns the bearer token of a new session (the account is reused if the address has one).
 */
export async function insertSignedInUser(databaseUrl: string, email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      // The same address twice (an admin in two tests of a file) is the same account with another session.
      `insert into users (email, password_hash, confirmed_at, created_at) values ($1, null, now(), now())
       on conflict (email) do update set email = excluded.email returning id`,
      [email],
    );
    await client.query(
      `insert into sessions (user_id, token_hash, created_at, last_used_at, expires_at) values ($1, $2, now(), now(), now() + interval '1 day')`,
      [rows[0]!.id, createHash('sha256').update(token).digest('hex')],
    );
  } finally {
    await client.end();
  }
  return token;
}

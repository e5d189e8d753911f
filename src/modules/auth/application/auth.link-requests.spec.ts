import { tokenFrom, useAuthTestBed } from '../testing/auth-test-bed';

/** Link requests must not tell which addresses have accounts, by their answer or by the work done before it. */
describe('AuthService link requests', () => {
  const bed = useAuthTestBed();

  /** What a request does before it answers: lookups, tokens written, mails stored, jobs queued. */
  async function requestPathWork(request: () => Promise<void>) {
    const findByEmail = jest.spyOn(bed.users, 'findByEmail');
    const findById = jest.spyOn(bed.users, 'findById');
    const [tokens, mails, queued] = [bed.tokens.rows.length, bed.outbox.sent.length, bed.queue.queued.length];
    await request();
    const work = {
      lookups: findByEmail.mock.calls.length + findById.mock.calls.length,
      tokens: bed.tokens.rows.length - tokens,
      mails: bed.outbox.sent.length - mails,
      jobs: bed.queue.queued.slice(queued).map((job) => job.name),
    };
    findByEmail.mockRestore();
    findById.mockRestore();
    return work;
  }

  it.each([
    ['a sign-in link', 'requestSignInLink', /Your .* sign-in link/, '/auth/sign_in_link'],
    ['a password reset', 'requestPasswordReset', /Reset your .* password/, '/auth/password_reset'],
  ] as const)('does the same work on the request path for %s, known address or not, and mails only the known one', async (_, method, subject, path) => {
    await bed.confirmedUser('owner@example.com');
    bed.queue.runAtOnce = false;

    const known = await requestPathWork(() => bed.service[method]('owner@example.com'));
    const unknown = await requestPathWork(() => bed.service[method]('nobody@example.com'));

    // Before: the known address's request wrote a token and a mail in the request (21 ms against 9 ms).
    expect(known).toEqual({ lookups: 1, tokens: 0, mails: 0, jobs: ['auth.link-request'] });
    expect(unknown).toEqual(known);

    // Where the jobs run, the mail goes to the owner only.
    for (const job of bed.queue.queued) await bed.service.deliverLinkRequest(job.data as Parameters<typeof bed.service.deliverLinkRequest>[0]);
    expect(bed.outbox.sent.map((mail) => mail.to)).toEqual(['owner@example.com']);
    expect(bed.outbox.sent[0]!.subject).toMatch(subject);
    expect(tokenFrom(bed.outbox.sent[0]!.text, path)).toHaveLength(43);
  });
});

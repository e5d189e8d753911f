import { toErrorResponse } from 'src/platform/errors/app-error.filter';
import { InsufficientCreditsError, PaymentsDisabledError } from './credits.errors';

describe('credit errors over HTTP', () => {
  it('answers a short balance with 402, the code the browser opens the low-credit modals on, and what it needs to pick one', () => {
    expect(toErrorResponse(new InsufficientCreditsError(0, true))).toEqual({
      status: 402,
      body: { errors: ["You don't has enough credit!"], code: 'CREDITS.INSUFFICIENT', balance: 0, has_paid: true },
      unexpected: false,
    });
    expect(toErrorResponse(new InsufficientCreditsError(0, false)).body).toMatchObject({ errors: ["You don't have enough credits"], has_paid: false });
  });

  it('hides payments behind a 404 while they are off', () => {
    expect(toErrorResponse(new PaymentsDisabledError())).toMatchObject({ status: 404, body: { code: 'PAYMENTS.DISABLED' } });
  });
});

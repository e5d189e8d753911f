import { ApiError, apiRequest } from './api';
import { lowCreditStore } from './low-credit';

const t = (key: string) => key;

describe('apiRequest', () => {
  afterEach(() => {
    jest.restoreAllMocks();
    lowCreditStore.close();
  });

  const answer = (status: number, body: unknown) =>
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

  it('raises ApiError with the code and body of a 4xx', async () => {
    answer(404, { errors: ['Not found'], code: 'BILLING.ORDER_NOT_FOUND' });
    const error = (await apiRequest(t, 'GET', '/api/v1/orders/x').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, errors: ['Not found'], message: 'Not found', code: 'BILLING.ORDER_NOT_FOUND' });
    expect(lowCreditStore.get()).toBeNull();
  });

  it('opens the low-credit modal on a 402 for missing credits, and still raises', async () => {
    const body = { errors: ['Not enough credits'], code: 'CREDITS.INSUFFICIENT', balance: 0, had_credits: true };
    answer(402, body);
    await expect(apiRequest(t, 'POST', '/api/v1/images', {})).rejects.toMatchObject({ status: 402, code: 'CREDITS.INSUFFICIENT', body });
    expect(lowCreditStore.get()).toEqual(body);
  });
});

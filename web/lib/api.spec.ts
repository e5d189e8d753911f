import { ApiError, apiRequest, apiUpload } from './api';
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
    const body = { errors: ['Not enough credits'], code: 'CREDITS.INSUFFICIENT', balance: 0, has_paid: true };
    answer(402, body);
    await expect(apiRequest(t, 'POST', '/api/v1/images', {})).rejects.toMatchObject({ status: 402, code: 'CREDITS.INSUFFICIENT', body });
    expect(lowCreditStore.get()).toEqual(body);
  });

  it('tries a POST once more on a 503, and not when told not to', async () => {
    const fetch = answer(503, { errors: ['Busy'] });
    await expect(apiRequest(t, 'POST', '/api/v1/checkout', {})).rejects.toMatchObject({ status: 503 });
    expect(fetch).toHaveBeenCalledTimes(2);
    fetch.mockClear();
    await expect(apiRequest(t, 'POST', '/api/v1/images', {}, { retry: false })).rejects.toMatchObject({ status: 503 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('apiUpload', () => {
  afterEach(() => {
    jest.restoreAllMocks();
    lowCreditStore.close();
  });

  const answer = (status: number, body: unknown) =>
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

  it('posts the form data as it is (the browser sets the multipart boundary) and reads JSON back', async () => {
    const fetch = answer(202, { id: 'j1', status: 'queued' });
    const form = new FormData();
    form.append('conversion', 'ai-2x');
    form.append('file', new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' }), 'a.png');
    await expect(apiUpload(t, '/api/v1/images', form)).resolves.toMatchObject({ status: 202, data: { id: 'j1' } });
    const [, init] = fetch.mock.calls[0]!;
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(form);
    expect(init?.headers).not.toHaveProperty('content-type');
  });

  it('opens the low-credit modal on a 402 like apiRequest, and raises the server code of other refusals', async () => {
    const body = { errors: ['Not enough credits'], code: 'CREDITS.INSUFFICIENT', balance: 0, has_paid: false };
    answer(402, body);
    await expect(apiUpload(t, '/api/v1/images', new FormData(), { retry: false })).rejects.toMatchObject({ status: 402, code: 'CREDITS.INSUFFICIENT' });
    expect(lowCreditStore.get()).toEqual(body);
    answer(400, { errors: ['Not an image'], code: 'IMAGES.INVALID_IMAGE' });
    await expect(apiUpload(t, '/api/v1/images', new FormData())).rejects.toMatchObject({ status: 400, message: 'Not an image', code: 'IMAGES.INVALID_IMAGE' });
  });
});

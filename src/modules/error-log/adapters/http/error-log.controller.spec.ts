import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { ADMIN_EMAIL, errorOf, useControllers } from 'src/platform/http/testing/controller-harness';
import { ErrorLogService } from '../../application/error-log.service';
import { ErrorReportRepository } from '../../domain/error-report-repository.port';
import { InMemoryErrorReportRepository } from '../../testing/in-memory-error-report-repository';
import { ErrorLogController } from './error-log.controller';

describe('ErrorLogController (in process)', () => {
  let accounts: TestAccounts;
  let reports: InMemoryErrorReportRepository;
  beforeEach(() => {
    accounts = new TestAccounts();
    reports = new InMemoryErrorReportRepository();
  });
  const api = useControllers(() => ({
    controllers: [ErrorLogController],
    providers: [ErrorLogService, { provide: ErrorReportRepository, useValue: reports }, ...accounts.providers()],
  }));

  const report = (error: object) => api.inject({ method: 'POST', url: '/api/v1/log_client_error', payload: { error } });
  const browserError = { error_type: 'CLIENT_ERROR', origin_type: 1, message: 'x is undefined at step 12', path: '/levels/27', user_email: 'ann@example.com' };

  it('records a browser error anonymously with an empty answer, and counts a repeat in its group', async () => {
    const first = await report(browserError);
    expect([first.statusCode, first.body]).toEqual([204, '']);
    await report({ ...browserError, message: 'x is undefined at step 13' });
    expect(reports.groups).toHaveLength(1);
    expect(reports.groups[0]).toMatchObject({ errorType: 'CLIENT_ERROR', count: 2, path: '/levels/27' });
  });

  it('refuses a report out of shape: 400, nothing stored', async () => {
    for (const error of [{ ...browserError, error_type: 'SERVER_ERROR' }, { ...browserError, origin_type: 10 }, { ...browserError, message: 'x'.repeat(2001) }, { ...browserError, nested: { deep: true } }]) {
      const refused = await report(error);
      expect([refused.statusCode, errorOf(refused).code]).toEqual([400, 'REQUEST.INVALID']);
    }
    const notJson = await api.inject({ method: 'POST', url: '/api/v1/log_client_error', headers: { 'content-type': 'text/plain' }, payload: 'oops' });
    expect([notJson.statusCode, errorOf(notJson).code]).toEqual([415, 'REQUEST.JSON_ONLY']);
    expect(reports.groups).toEqual([]);
  });

  it('lists the groups for an admin only, most recently seen first, with who and where', async () => {
    await report(browserError);
    await report({ ...browserError, error_type: 'API_ERROR', message: 'GET /api/v1/levels answered 500' });
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const list = await api.inject({ method: 'GET', url: '/api/v1/admin/client_errors?limit=1', headers: admin.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual([expect.objectContaining({ error_type: 'API_ERROR', origin_type: 1, user_email: 'ann@example.com', count: 1 })]);
    const player = await accounts.signIn();
    expect(errorOf(await api.inject({ method: 'GET', url: '/api/v1/admin/client_errors', headers: player.headers })).code).toBe('AUTH.ADMIN_REQUIRED');
    expect((await api.inject({ method: 'GET', url: '/api/v1/admin/client_errors' })).statusCode).toBe(401);
    const badLimit = await api.inject({ method: 'GET', url: '/api/v1/admin/client_errors?limit=501', headers: admin.headers });
    expect([badLimit.statusCode, errorOf(badLimit).code]).toEqual([400, 'REQUEST.INVALID']);
  });
});

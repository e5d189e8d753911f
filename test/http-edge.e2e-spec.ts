import { insertSignedInUser } from './support/accounts';
import { startApp, type RunningApp } from './support/app-process';
import { createTestDatabase, type TestDatabase } from './support/services';

const PUBLIC_URL = 'https://guides.example';
const ADMIN = 'ops@example.com';

describe('the HTTP edge of the built web app', () => {
  let database: TestDatabase;
  let app: RunningApp;
  let adminToken: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startApp({
      DATABASE_URL: database.url,
      HAS_LOGIN: 'true',
      ADMIN_EMAILS: ADMIN,
      NODE_ENV: 'production',
      MIGRATE_ON_START: 'true',
      PUBLIC_URL,
      TRUST_PROXY: '1',
    });
    adminToken = await insertSignedInUser(database.url, ADMIN);
  });

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
  });

  it('answers admin and signed-in API responses with Cache-Control: no-store', async () => {
    const response = await fetch(`${app.url}/api/v1/admin/guide_requests`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('sets the vid voter cookie Secure when PUBLIC_URL is https', async () => {
    const response = await fetch(`${app.url}/api/v1/levels/634/guide_requests`, { method: 'POST' });
    expect(response.status).toBe(201);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^vid=/);
    expect(cookie).toMatch(/; Secure/);
  });
});

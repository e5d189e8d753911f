// The unit tier needs no services: point every service variable at a port where nothing answers,
// so a spec that reaches for PostgreSQL or Redis fails instead of quietly using a real one.
process.env.TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:1/none';
process.env.TEST_REDIS_URL = 'redis://127.0.0.1:1';
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from 'src/config/app-config';

/**
 * The API's OpenAPI document at /api/docs/openapi.json, browsable at /api/docs. Made on the first
 * request for it, not at start: scanning every controller is work most processes never need.
 */
export function setupOpenApi(app: NestFastifyApplication, config: AppConfig): void {
  const document = () =>
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle(`${config.public.siteName} API`)
        .setDescription('Level guides, accounts and the public endpoints of the site. Errors answer { "errors": [...], "code": "..." }.')
        .setVersion('1')
        .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The session token of POST /auth/sign_in (admin endpoints: an account in ADMIN_EMAILS)' }, 'session')
        .build(),
    );
  // Swagger UI sets inline styles of its own. On its pages only, styles may be inline; styles
  // cannot run code, and script-src stays as strict as everywhere else.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request, reply, payload) => {
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp === 'string' && request.url.startsWith('/api/docs')) {
        void reply.header('content-security-policy', csp.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"));
      }
      return payload;
    });
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/docs/openapi.json',
    customSiteTitle: `${config.public.siteName} API`,
  });
}

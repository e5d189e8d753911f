import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from 'src/config/app-config';

/** The API's OpenAPI document at /api/docs/openapi.json, browsable at /api/docs. */
export function setupOpenApi(app: NestFastifyApplication, config: AppConfig): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle(`${config.public.siteName} API`)
      .setDescription('Level guides and the public endpoints of the site. Errors answer { "errors": [...], "code": "..." }.')
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The session token of POST /auth/sign_in (admin endpoints: an account in ADMIN_EMAILS)' }, 'session')
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/docs/openapi.json',
    customSiteTitle: `${config.public.siteName} API`,
  });
}

import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app/app.module';
import {
  API_PREFIX,
  API_PREFIX_OPTIONS,
  buildOpenApiDocument,
} from './app/platform/openapi/openapi-document';

/**
 * Writes Grove's OpenAPI document (JSON) to the file named by the first argument, with no database and no server: the Nest app
 * is created in preview mode (modules and routes read, no provider instantiated). Run by
 * `tools/scripts/api-contract.mjs` (`npm run api:contract`).
 */
async function writeDocument(outFile: string): Promise<void> {
  const app = await NestFactory.create(
    AppModule.forRoot({
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi',
    }),
    { preview: true, logger: false, abortOnError: false },
  );
  app.setGlobalPrefix(API_PREFIX, API_PREFIX_OPTIONS);
  writeFileSync(outFile, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
  await app.close();
}

writeDocument(process.argv[2] ?? 'openapi.json').catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});

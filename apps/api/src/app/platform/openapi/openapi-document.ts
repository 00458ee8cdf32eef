import { RequestMethod, type INestApplication } from '@nestjs/common';
import type { GlobalPrefixOptions, RouteInfo } from '@nestjs/common/interfaces';
import { ApiProperty, ApiPropertyOptional, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Every API route lives under `/api` (docs/rest-api.md), except the pages the API renders. */
export const API_PREFIX = 'api';

/**
 * Routes outside the `/api` prefix: `/remotes.json`, the referral join page `/referral/:code`
 * (referrals/join-page) and the member page `/member` (member-page/member-page-html.controller.ts).
 */
export const API_PREFIX_OPTIONS: GlobalPrefixOptions<string | RouteInfo> = {
  exclude: [
    { path: 'remotes.json', method: RequestMethod.GET },
    { path: 'referral/:code', method: RequestMethod.GET },
    { path: 'referral/:code', method: RequestMethod.POST },
    { path: 'join/:code', method: RequestMethod.GET },
    { path: 'join/:code', method: RequestMethod.POST },
    { path: 'member', method: RequestMethod.GET },
    { path: 'member', method: RequestMethod.POST },
    { path: 'member/landing', method: RequestMethod.POST },
    { path: 'member/sign-out', method: RequestMethod.POST },
    { path: 'contact', method: RequestMethod.GET },
    { path: 'contact/send', method: RequestMethod.POST },
  ],
};

/**
 * The one shape of every error reply (docs/rest-api.md#errors): `message` is the text to show the
 * user (docs/product.md's messages verbatim), `fieldErrors` the per-field messages of a body that
 * failed validation. Declared once here and referenced by every operation's 4xx/5xx replies.
 */
export class ApiErrorBodyDto {
  @ApiProperty({ description: 'The HTTP status, repeated', example: 400 })
  statusCode!: number;

  @ApiProperty({
    description: 'The text to show the user',
    example: 'Please enter a valid email address.',
  })
  message!: string;

  @ApiPropertyOptional({
    description: 'Per-field messages (field name → message) when the body failed validation',
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  fieldErrors?: Record<string, string>;
}

const ERROR_SCHEMA_NAME = 'ApiErrorBody';

/**
 * Grove's OpenAPI 3 document, generated from the Nest app's controllers and DTOs. It is the
 * contract between the web and the API: `npm run api:contract` writes it to
 * `libs/shared/api-contract/openapi.json` and generates the web's client types from it; `npm run
 * lint` fails when the committed copy differs from a fresh generation (docs/architecture.md#the-api-contract).
 *
 * Every operation gets a `default` reply of `ApiErrorBody` (the one error shape); keys are sorted
 * so the committed file changes only when the contract does.
 * @param app an app whose global prefix is set (a full app, or one created with `preview: true`)
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Grove API')
      .setDescription(
        'Referral and retention for membership businesses. Money is integer cents; every error reply is an ApiErrorBody.',
      )
      .setVersion('1')
      .addCookieAuth('grove_access')
      .build(),
    {
      extraModels: [ApiErrorBodyDto],
      operationIdFactory: (controller, method) =>
        `${controller.replace(/Controller$/, '')}_${method}`,
    },
  );
  const schemas = document.components?.schemas ?? {};
  if (schemas[ApiErrorBodyDto.name]) {
    schemas[ERROR_SCHEMA_NAME] = schemas[ApiErrorBodyDto.name];
    delete schemas[ApiErrorBodyDto.name];
  }
  for (const pathItem of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = pathItem[method];
      if (!operation) continue;
      operation.responses.default ??= {
        description: 'Error: the message to show, and per-field messages for a bad body',
        content: {
          'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` } },
        },
      };
    }
  }
  return sortKeys(document) as OpenAPIObject;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

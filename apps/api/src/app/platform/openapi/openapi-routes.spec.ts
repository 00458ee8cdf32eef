import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { NestFactory, ModulesContainer } from '@nestjs/core';
import { AppModule } from '../../app.module';
import { API_PREFIX, API_PREFIX_OPTIONS, buildOpenApiDocument } from './openapi-document';

const COMMITTED = path.join(__dirname, '../../../../../../libs/shared/api-contract/openapi.json');
const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
  [RequestMethod.HEAD]: 'head',
};

/** Every route Nest serves, read from the controllers' own metadata: 'get /api/members/{id}'. */
function nestRoutes(app: INestApplication): string[] {
  const excluded = (API_PREFIX_OPTIONS.exclude ?? []).map((route) =>
    typeof route === 'string' ? route : `${route.method}:${route.path}`,
  );
  const routes: string[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
      for (const name of Object.getOwnPropertyNames(metatype.prototype)) {
        const handler = (metatype.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const sub = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (method === undefined || sub === undefined) continue;
        const route = [base, sub].filter((part) => part && part !== '/').join('/');
        const bare = route.replace(/^\/+/, '');
        const prefixed = excluded.includes(`${method}:${bare}`) ? bare : `${API_PREFIX}/${bare}`;
        routes.push(`${METHODS[method]} /${prefixed.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  }
  return routes.sort();
}

/** Every operation of an OpenAPI document: 'get /api/members/{id}'. */
function documentRoutes(document: { paths: Record<string, object> }): string[] {
  return Object.entries(document.paths)
    .flatMap(([route, item]) => Object.keys(item).map((method) => `${method} ${route}`))
    .sort();
}

describe('the committed API contract (libs/shared/api-contract/openapi.json)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await NestFactory.create(
      AppModule.forRoot({
        NODE_ENV: 'test',
        DATABASE_URL: 'postgres://openapi@127.0.0.1:1/openapi',
      }),
      { preview: true, logger: false, abortOnError: false },
    );
    app.setGlobalPrefix(API_PREFIX, API_PREFIX_OPTIONS);
  });
  afterAll(() => app.close());

  it('declares every route Nest serves, and no route Nest does not serve', () => {
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8')) as {
      paths: Record<string, object>;
    };
    const served = nestRoutes(app);
    expect(served.length).toBeGreaterThan(80);
    expect(served.filter((route) => !documentRoutes(committed).includes(route))).toEqual([]);
    expect(documentRoutes(committed).filter((route) => !served.includes(route))).toEqual([]);
  });

  it('types the success reply of every operation (a body schema, or 204 No Content)', () => {
    const document = buildOpenApiDocument(app);
    const untyped = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.entries(item as Record<string, { responses?: Record<string, { content?: object }> }>)
        .filter(([, operation]) =>
          Object.entries(operation.responses ?? {}).every(
            ([status, reply]) => status === 'default' || (!reply.content && status !== '204'),
          ),
        )
        .map(([method]) => `${method} ${route}`),
    );
    expect(untyped).toEqual([]);
  });
});

import 'reflect-metadata';
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { IS_PUBLIC_KEY } from '../src/app/platform/common/public.decorator';
import { API_PREFIX, API_PREFIX_OPTIONS } from '../src/app/platform/openapi/openapi-document';

/** One route a Nest app serves, as the OpenAPI document writes it. */
export interface ServedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** `/api/members/{id}` */
  path: string;
  /** Marked `@Public()` (on the handler or its controller): no session, no role. */
  isPublic: boolean;
}

const METHODS: Partial<Record<RequestMethod, ServedRoute['method']>> = {
  [RequestMethod.GET]: 'GET',
  [RequestMethod.POST]: 'POST',
  [RequestMethod.PUT]: 'PUT',
  [RequestMethod.PATCH]: 'PATCH',
  [RequestMethod.DELETE]: 'DELETE',
  [RequestMethod.HEAD]: 'HEAD',
};

/**
 * Every route the app serves, read from its controllers' own metadata (as
 * `platform/openapi/openapi-routes.spec.ts` does), with whether it is public.
 */
export function servedRoutes(app: INestApplication): ServedRoute[] {
  const excluded = (API_PREFIX_OPTIONS.exclude ?? []).map((route) =>
    typeof route === 'string' ? route : `${route.method}:${route.path}`,
  );
  const routes: ServedRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
      const publicClass = Reflect.getMetadata(IS_PUBLIC_KEY, metatype) === true;
      for (const name of Object.getOwnPropertyNames(metatype.prototype)) {
        const handler = (metatype.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const sub = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (method === undefined || sub === undefined || !METHODS[method]) continue;
        const route = [base, sub].filter((part) => part && part !== '/').join('/');
        const bare = route.replace(/^\/+/, '');
        const prefixed = excluded.includes(`${method}:${bare}`) ? bare : `${API_PREFIX}/${bare}`;
        routes.push({
          method: METHODS[method],
          path: `/${prefixed.replace(/:(\w+)/g, '{$1}')}`,
          isPublic: publicClass || Reflect.getMetadata(IS_PUBLIC_KEY, handler) === true,
        });
      }
    }
  }
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

/**
 * The contract between the web and the API, generated from the API's OpenAPI document
 * (libs/shared/api-contract/openapi.json, written by `npm run api:contract` from the Nest
 * controllers and DTOs; `npm run lint` fails when it is stale).
 *
 * - `paths`: every route with its parameters, bodies and replies (what openapi-fetch,
 *   openapi-react-query and openapi-msw are typed by);
 * - `Schema<'MemberRow'>`: one named reply or body shape.
 */
import type { components, operations, paths } from './generated/schema';

export type { components, operations, paths };

/** A named schema of the document, e.g. `Schema<'MemberRow'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** Every API path of the document, e.g. `'/api/members/{id}'`. */
export type ApiPath = keyof paths;

export { apiUrl } from './api-url';

import type { IncomingHttpHeaders } from 'node:http';
import Ajv from 'ajv';
import contractDocument from '../contract/mindbody-contract.openapi.json';

/** Grove's OpenAPI 3 contract of the Mindbody operations it uses (`src/contract/mindbody-contract.openapi.json`). */
export const MINDBODY_CONTRACT = contractDocument as unknown as OpenApiDocument;

/** The parts of an OpenAPI 3.0 document the validator reads. */
interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: { parameters: Record<string, OpenApiParameter> };
}
interface OpenApiParameter {
  name: string;
  in: 'query' | 'header' | 'path';
  required?: boolean;
  schema: Record<string, unknown>;
}
interface OpenApiOperation {
  operationId: string;
  parameters?: (OpenApiParameter | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema: { $ref: string } }> };
  responses: Record<
    string,
    { $ref?: string; content?: Record<string, { schema: Record<string, unknown> }> }
  >;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;
/** Key under which the whole document is added to Ajv, so `#/components/…` refs resolve against it. */
const DOCUMENT_KEY = 'mindbody-contract';

/** One operation of the contract. */
export interface ContractOperation {
  operationId: string;
  /** Upper case, e.g. 'GET'. */
  method: string;
  /** The path template as the contract writes it, e.g. '/api/v1/subscriptions/{subscriptionId}'. */
  path: string;
  /** 'webhooks' for the Webhooks API (`/api/v1/…`), else 'public' (`/public/v6/…`). */
  api: 'public' | 'webhooks';
}

/** A request the contract refuses: the status the sandbox answers and Mindbody's error code. */
export interface ContractFailure {
  status: 400 | 404;
  code: string;
  message: string;
}

/** The operation a request names, with its path parameters. */
export interface MatchedOperation {
  operation: ContractOperation;
  pathParams: Record<string, string>;
}

/** What {@link MindbodyContract.checkRequest} reads of a request. */
export interface ContractRequest {
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body ('' when none). */
  body: string;
}

interface CompiledOperation {
  operation: ContractOperation;
  pattern: RegExp;
  pathParamNames: string[];
  headers: OpenApiParameter[];
  query: Map<string, OpenApiParameter>;
  validateQuery: Ajv.ValidateFunction;
  body: { required: boolean; validate: Ajv.ValidateFunction } | null;
  raw: OpenApiOperation;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Checks requests and responses against Grove's Mindbody contract with Ajv (6.x: draft-07 JSON
 * Schema plus OpenAPI 3.0's `nullable`) over the parsed document — why Ajv and not a framework:
 * docs/decisions/mindbody-contract.md#validator. Paths match case-insensitively (Mindbody's are);
 * parameter and property names match exactly as the contract spells them.
 *
 * - an unknown path or a method the path does not have → 404 `NotFound`;
 * - a query parameter the operation does not declare, a missing required one, or a value of the
 *   wrong type (query strings coerced: '12' → 12, 'true' → true, a repeated name or `name[0]`
 *   → an array) → 400 `InvalidParameter` / `MissingRequiredFields`;
 * - a missing required header (other than `API-Key`, which the sandbox answers 401 for first)
 *   → 400 `MissingRequiredFields`;
 * - a body that is not JSON, a property the body schema does not declare, or a wrong type
 *   → 400 `InvalidParameter`.
 */
export class MindbodyContract {
  private readonly compiled: CompiledOperation[] = [];
  private readonly queryAjv: Ajv.Ajv;
  private readonly bodyAjv: Ajv.Ajv;
  private readonly responseValidators = new Map<string, Ajv.ValidateFunction>();

  constructor(private readonly document: OpenApiDocument = MINDBODY_CONTRACT) {
    this.queryAjv = ajv({ coerceTypes: 'array' });
    this.bodyAjv = ajv({});
    this.bodyAjv.addSchema(document, DOCUMENT_KEY);
    for (const [path, item] of Object.entries(document.paths)) {
      const shared = (item.parameters ?? []) as OpenApiOperation['parameters'];
      for (const method of METHODS) {
        const raw = item[method] as OpenApiOperation | undefined;
        if (raw) this.compiled.push(this.compile(path, method, raw, shared ?? []));
      }
    }
  }

  /** Every operation of the contract, in document order. */
  operations(): ContractOperation[] {
    return this.compiled.map((entry) => ({ ...entry.operation }));
  }

  /** The operation `method path` names, or a 404 failure. */
  match(method: string, pathname: string): MatchedOperation | ContractFailure {
    const path = pathname.replace(/\/+$/, '') || '/';
    let pathKnown = false;
    for (const entry of this.compiled) {
      const found = entry.pattern.exec(path);
      if (!found) continue;
      pathKnown = true;
      if (entry.operation.method !== method.toUpperCase()) continue;
      const pathParams = Object.fromEntries(
        entry.pathParamNames.map((name, index) => [name, decodeURIComponent(found[index + 1])]),
      );
      return { operation: entry.operation, pathParams };
    }
    return {
      status: 404,
      code: 'NotFound',
      message: pathKnown
        ? `${method.toUpperCase()} is not an operation of ${path} in Mindbody's API`
        : `No Mindbody operation at ${path}`,
    };
  }

  /**
   * The first thing the contract refuses in a request to `matched`, or null when it conforms.
   * Headers are checked before the query string, the query string before the body.
   */
  checkRequest(matched: MatchedOperation, request: ContractRequest): ContractFailure | null {
    const entry = this.entry(matched.operation.operationId);
    for (const header of entry.headers) {
      const name = header.name.toLowerCase();
      if (name === 'api-key' || !header.required) continue;
      if (!request.headers[name])
        return {
          status: 400,
          code: 'MissingRequiredFields',
          message: `The ${header.name} header is required`,
        };
    }
    const query: Record<string, unknown> = {};
    for (const [key, value] of request.query) {
      const name = key.replace(/\[\d*\]$/, '');
      const declared = entry.query.get(name);
      if (!declared)
        return {
          status: 400,
          code: 'InvalidParameter',
          message: `The query parameter ${name} is not part of ${matched.operation.method} ${matched.operation.path}`,
        };
      const previous = query[name];
      query[name] =
        previous === undefined
          ? declared.schema.type === 'array'
            ? [value]
            : value
          : [...(Array.isArray(previous) ? previous : [previous]), value];
    }
    if (!entry.validateQuery(query)) {
      const [first] = entry.validateQuery.errors ?? [];
      return {
        status: 400,
        code: first?.keyword === 'required' ? 'MissingRequiredFields' : 'InvalidParameter',
        message: `Query: ${describe(first)}`,
      };
    }
    if (!entry.body) return null;
    if (request.body.trim() === '') {
      return entry.body.required
        ? { status: 400, code: 'InvalidParameter', message: 'A JSON body is required' }
        : null;
    }
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return { status: 400, code: 'InvalidParameter', message: 'The body is not valid JSON' };
    }
    if (!entry.body.validate(body)) {
      const [first] = entry.body.validate.errors ?? [];
      return { status: 400, code: 'InvalidParameter', message: `Body: ${describe(first)}` };
    }
    return null;
  }

  /**
   * What is wrong with a reply of `operationId` (status and JSON body) according to the
   * contract: [] when it conforms; a status the operation does not declare is an error too.
   */
  checkResponse(operationId: string, status: number, body: unknown): string[] {
    const entry = this.entry(operationId);
    const response = entry.raw.responses[String(status)];
    if (!response) return [`${operationId} declares no ${status} reply`];
    const key = `${operationId} ${status}`;
    let validate = this.responseValidators.get(key);
    if (!validate) {
      const resolved = response.$ref
        ? (this.resolve(response.$ref) as {
            content: OpenApiOperation['responses'][string]['content'];
          })
        : response;
      const schema = resolved.content?.['application/json']?.schema;
      validate = this.bodyAjv.compile(schema ? this.rebase(schema) : {});
      this.responseValidators.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map(describe);
  }

  private entry(operationId: string): CompiledOperation {
    const entry = this.compiled.find((item) => item.operation.operationId === operationId);
    if (!entry) throw new Error(`No operation ${operationId} in the Mindbody contract`);
    return entry;
  }

  private compile(
    path: string,
    method: (typeof METHODS)[number],
    raw: OpenApiOperation,
    shared: NonNullable<OpenApiOperation['parameters']>,
  ): CompiledOperation {
    const parameters = [...shared, ...(raw.parameters ?? [])].map((parameter) =>
      '$ref' in parameter ? (this.resolve(parameter.$ref) as OpenApiParameter) : parameter,
    );
    const pathParamNames: string[] = [];
    const pattern = new RegExp(
      `^${path
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (!name) return escapeRegExp(part);
          pathParamNames.push(name);
          return '([^/]+)';
        })
        .join('')}$`,
      'i',
    );
    const queryParams = parameters.filter((parameter) => parameter.in === 'query');
    const validateQuery = this.queryAjv.compile({
      type: 'object',
      additionalProperties: false,
      required: queryParams.filter((parameter) => parameter.required).map((p) => p.name),
      properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
    });
    const bodySchema = raw.requestBody?.content['application/json']?.schema;
    return {
      operation: {
        operationId: raw.operationId,
        method: method.toUpperCase(),
        path,
        api: path.startsWith('/api/') ? 'webhooks' : 'public',
      },
      pattern,
      pathParamNames,
      headers: parameters.filter((parameter) => parameter.in === 'header'),
      query: new Map(queryParams.map((parameter) => [parameter.name, parameter])),
      validateQuery,
      body: bodySchema
        ? {
            required: raw.requestBody?.required === true,
            validate: this.bodyAjv.compile(this.rebase(bodySchema)),
          }
        : null,
      raw,
    };
  }

  /** A `#/…` reference of the document, resolved. */
  private resolve(ref: string): unknown {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>(
        (node, part) =>
          (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')],
        this.document,
      );
  }

  /** A schema whose `#/…` refs point into the document added under {@link DOCUMENT_KEY}. */
  private rebase(schema: Record<string, unknown>): Record<string, unknown> {
    return JSON.parse(
      JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${DOCUMENT_KEY}#/`),
    ) as Record<string, unknown>;
  }
}

/** An Ajv instance for OpenAPI 3.0 schemas: `nullable`, and the int32/double formats. */
function ajv(options: Ajv.Options): Ajv.Ajv {
  const instance = new Ajv({ ...options, nullable: true, allErrors: false, format: 'full' });
  instance.addFormat('int32', {
    type: 'number',
    validate: (value: number) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31,
  });
  instance.addFormat('double', {
    type: 'number',
    validate: (value: number) => Number.isFinite(value),
  });
  return instance;
}

function describe(error: Ajv.ErrorObject | undefined): string {
  if (!error) return 'invalid';
  const where = error.dataPath.replace(/^\./, '').replace(/^\['(.+)'\]/, '$1') || 'value';
  if (error.keyword === 'additionalProperties')
    return `${where === 'value' ? '' : `${where}: `}${(error.params as { additionalProperty: string }).additionalProperty} is not a declared property`;
  if (error.keyword === 'required')
    return `${(error.params as { missingProperty: string }).missingProperty.replace(/^\.|^\['|'\]$/g, '')} is required`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

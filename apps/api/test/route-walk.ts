// Helpers of the property-based route walk (common/route-walk.integration-spec.ts): requests
// generated from the API's own OpenAPI document, and a byte-exact dump of one business's rows.
import fc from 'fast-check';
import type { DataSource } from 'typeorm';

/** The parts of an OpenAPI 3 document the walk reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}
interface OpenApiOperation {
  parameters?: { name: string; in: 'path' | 'query' | 'header' | 'cookie' }[];
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
}
interface OpenApiSchema {
  $ref?: string;
  type?: string;
  example?: unknown;
  properties?: Record<string, OpenApiSchema>;
}

/** One route of the document: `GET /api/members/{id}`. */
export interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path with `{param}` placeholders. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Body properties with the document's examples (empty for routes without a JSON body). */
  bodyProperties: Record<string, unknown[]>;
}

/** A generated request, ready for supertest. */
export interface WalkRequest {
  method: Route['method'];
  url: string;
  headers: Record<string, string>;
  /** Raw body text (JSON or not); undefined = no body. */
  body?: string;
}

const METHODS = new Set<Route['method']>(['get', 'post', 'put', 'patch', 'delete']);

/** Every operation of the document, as routes (none left out). */
export function routesOf(document: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.has(method as Route['method'])) continue;
      const parameters = operation.parameters ?? [];
      const schema = resolve(
        document,
        operation.requestBody?.content?.['application/json']?.schema,
      );
      const bodyProperties: Record<string, unknown[]> = {};
      for (const [name, property] of Object.entries(schema?.properties ?? {})) {
        bodyProperties[name] = property.example === undefined ? [] : [property.example];
      }
      routes.push({
        method: method as Route['method'],
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        bodyProperties,
      });
    }
  }
  return routes;
}

function resolve(
  document: OpenApiDocument,
  schema: OpenApiSchema | undefined,
): OpenApiSchema | undefined {
  if (!schema?.$ref) return schema;
  return document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')];
}

/** Strings meant to break things: control characters, bidi overrides, huge, numeric edge cases, injection. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'line\nbreak',
  '\t',
  '\u001B[31m',
  '\u007F',
  '\u0085',
  'abc\u202Eexe.txt',
  '\u2066x\u2069',
  '\uFEFF',
  '\uD800',
  '💪🏽',
  'x'.repeat(300),
  'y'.repeat(6000),
  '1e21',
  '99999999999999999999',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  '0x10',
  'null',
  'true',
  '__proto__',
  'constructor',
  "'; DROP TABLE members; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '${jndi:ldap://x}',
];

/** Control characters a valid value gets one of (`withControlCharacter`). */
const CONTROL_CHARACTERS = [
  '\u0000',
  '\u0007',
  '\u001B',
  '\u007F',
  '\u0085',
  '\u202E',
  '\u2066',
  '\n',
  '\t',
];

/** A valid-looking value with one control character inserted somewhere: passes a pattern that forgets them. */
function withControlCharacter(values: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...values), fc.constantFrom(...CONTROL_CHARACTERS), fc.nat())
    .map(([value, control, at]) => {
      const position = at % (value.length + 1);
      return value.slice(0, position) + control + value.slice(position);
    });
}

/** Values a body field may get: the document's example, valid-looking domain values, wrong types, null, nasty strings. */
function valueArbitrary(examples: unknown[], pool: readonly string[]): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(
    fc.constantFrom<unknown>(...NASTY_STRINGS),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }),
    fc.integer(),
    fc.constantFrom<unknown>(1e21, -0, 2 ** 53 + 2, -1, 0, 0.001, 1_000_001, 49.999),
    fc.double(),
    fc.boolean(),
  );
  const strings = [...examples.filter((e): e is string => typeof e === 'string'), ...pool];
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom<unknown>(...(examples.length ? examples : ['']), ...pool),
    },
    { weight: 1, arbitrary: fc.emailAddress() },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: withControlCharacter(strings.length ? strings : ['x']) },
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }) },
  );
}

/** A value meant to break one field: null, a valid value with a control character, a wrong type, a nasty string. */
function badValue(examples: unknown[][], pool: readonly string[]): fc.Arbitrary<unknown> {
  const strings = [...examples.flat().filter((e): e is string => typeof e === 'string'), ...pool];
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 3, arbitrary: withControlCharacter(strings.length ? strings : ['x']) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(...NASTY_STRINGS, 1e21, -1, 2 ** 53 + 2, true, [], {}),
    },
    { weight: 2, arbitrary: valueArbitrary([], pool) },
  );
}

/** A URL-encoded piece; a lone surrogate (which `encodeURIComponent` refuses) becomes a raw invalid UTF-8 escape. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

/** Path parameter values: known ids (own and the other business's), random ids, nasty and raw invalid escapes. */
function pathValueArbitrary(pool: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...pool) },
    { weight: 2, arbitrary: fc.uuid().map(encode) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS.filter((s) => s !== '')).map(encode) },
    {
      weight: 2,
      arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map(encode),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%FF', '%E0%A4%A', '%', '%%', '%2F', '..', '.', '%2e%2e'),
    },
  );
}

const VALID_QUERY_VALUES = [
  '1',
  '2',
  '50',
  '100',
  '1000000',
  'asc',
  'desc',
  'memberName',
  'branches',
  'Ann',
];

/** Query values meant to break: numeric edge cases, control characters, nasty strings. */
const queryEdgeValue: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '1e21',
      '99999999999999999999',
      '1e2',
      '-1',
      '0',
      '1.5',
      '0x10',
      'NaN',
      '101',
      '1000001',
      '',
    ),
  },
  { weight: 2, arbitrary: withControlCharacter(VALID_QUERY_VALUES) },
  { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
);

/** Query values: valid ones, edge values, random digits and text. */
function queryValueArbitrary(pool: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...VALID_QUERY_VALUES, ...pool) },
    { weight: 3, arbitrary: queryEdgeValue },
    { weight: 1, arbitrary: fc.nat().map(String) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  );
}

/** Header values Node's client can send (printable ASCII). */
const headerText = fc.stringMatching(/^[\x20-\x7e]{0,60}$/);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=koi8-r',
  'application/json; charset=nonsense',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/merge-patch+json',
];

/**
 * Generated requests for one route: path ids from `pool` or random, the declared query parameters
 * (and unknown or repeated ones), a body built from the document's schema (any subset of its
 * fields with any values, extra fields, or raw JSON, malformed, oversized or form-encoded text),
 * and headers (content types with odd charsets, content encodings, origins, junk cookies).
 * @param pool strings worth trying anywhere: ids and codes of both businesses, valid field values
 */
export function requestArbitrary(
  route: Route,
  pool: readonly string[],
  bodyPool: readonly string[],
): fc.Arbitrary<WalkRequest> {
  const path = fc
    .tuple(...route.pathParams.map(() => pathValueArbitrary(pool)))
    .map((values) =>
      route.pathParams.reduce(
        (url, name, index) => url.replace(`{${name}}`, values[index] ?? ''),
        route.path,
      ),
    );
  const knownQuery = fc.array(
    fc.tuple(
      fc.constantFrom(...(route.queryParams.length ? route.queryParams : ['page'])),
      queryValueArbitrary(pool),
    ),
    { maxLength: 4 },
  );
  const unknownQuery = fc.array(
    fc.tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }), queryValueArbitrary(pool)),
    {
      maxLength: 1,
    },
  );
  // One declared parameter with an edge value and nothing else: reaches that parameter's own rule.
  const oneBadParameter = fc
    .tuple(
      fc.constantFrom(...(route.queryParams.length ? route.queryParams : ['page'])),
      queryEdgeValue,
    )
    .map(([key, value]) => [[key, value] as [string, string]]);
  const query = fc
    .oneof(
      {
        weight: 2,
        arbitrary: fc
          .tuple(knownQuery, unknownQuery)
          .map(([known, unknown]) => [...known, ...unknown]),
      },
      { weight: route.queryParams.length ? 2 : 0, arbitrary: oneBadParameter },
    )
    .map((pairs) => pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&'));
  const fields = Object.entries(route.bodyProperties);
  // Any subset of the fields with any values, and now and then a field the route does not know.
  const objectBody = fc
    .tuple(
      fc.subarray(fields),
      fc.oneof(
        { weight: 7, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.string({ maxLength: 12 }), valueArbitrary([], bodyPool)),
        },
      ),
    )
    .chain(([chosen, extra]) =>
      fc
        .tuple(...chosen.map(([, examples]) => valueArbitrary(examples, bodyPool)))
        .map((values) => {
          const body: Record<string, unknown> = {};
          chosen.forEach(([name], index) => (body[name] = values[index]));
          if (extra) body[extra[0]] = extra[1];
          return JSON.stringify(body);
        }),
    );
  const rawBody = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'null'),
    fc.constantFrom(
      '{',
      '{"a":',
      '[1,2',
      'null',
      '"text"',
      '{"__proto__":{"x":1}}',
      '\u0000',
      '{"a":"\\u0000"}',
      '',
    ),
    fc.string({ unit: 'binary', maxLength: 50 }),
    fc.constant(JSON.stringify({ padding: 'z'.repeat(110 * 1024) })),
    fc.constant('a=1&b=2&c[d]=3&' + 'k=v&'.repeat(1200)),
  );
  // Every field at its example but one, which gets any value: reaches each field's own rule.
  const oneBadField = fields.length
    ? fc
        .tuple(
          fc.nat({ max: fields.length - 1 }),
          badValue(
            fields.map(([, examples]) => examples),
            bodyPool,
          ),
        )
        .map(([bad, value]) =>
          JSON.stringify(
            Object.fromEntries(
              fields.map(([name, examples], index) => [
                name,
                index === bad ? value : (examples[0] ?? ''),
              ]),
            ),
          ),
        )
    : objectBody;
  const body = fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: objectBody },
    { weight: 6, arbitrary: oneBadField },
    { weight: 2, arbitrary: rawBody },
  );
  // Mostly plain JSON and no odd header, so most requests reach the route's own rules; the rest
  // try the parser's and the guards' refusals.
  const sometimes = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
  const headers = fc.record({
    'Content-Type': fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    ),
    'Content-Encoding': sometimes(
      fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'x-nonsense'),
    ),
    Origin: sometimes(fc.constantFrom('http://evil.example', 'null', 'http://127.0.0.1')),
    'X-Request-Id': fc.option(headerText, { nil: undefined, freq: 2 }),
    Accept: fc.option(fc.constantFrom('application/json', 'text/html', '*/*', 'image/png'), {
      nil: undefined,
      freq: 2,
    }),
    Cookie: sometimes(
      fc.constantFrom(
        'grove_access=garbage',
        'grove_refresh=garbage',
        'grove_access=; grove_refresh=',
      ),
    ),
    'X-Mindbody-Signature': fc.option(headerText, { nil: undefined, freq: 2 }),
    'X-Forwarded-For': sometimes(fc.constantFrom('1.2.3.4', 'not-an-ip', '::1, 10.0.0.1')),
  });
  return fc
    .record({ path, query, body, headers })
    .map(({ path: url, query: search, body: text, headers: chosen }) => ({
      method: route.method,
      url: search ? `${url}?${search}` : url,
      headers: Object.fromEntries(
        Object.entries(chosen).filter((entry): entry is [string, string] => entry[1] !== undefined),
      ),
      body: text,
    }));
}

/**
 * Every row that belongs to one business, as text, for a byte-exact before/after comparison: its
 * `businesses` row, the rows of every public table with a `business_id` column, and the rows of
 * every table with a `user_id` column that belong to its users (sessions). Tables are found in the
 * catalogue, so a table added later is covered without editing this list.
 */
export async function businessRows(
  dataSource: DataSource,
  businessId: string,
): Promise<Record<string, string[]>> {
  const columns = (await dataSource.query(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name IN ('business_id', 'user_id')
        AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')`,
  )) as { table_name: string; column_name: string }[];
  const byTable = new Map<string, Set<string>>();
  for (const { table_name, column_name } of columns)
    byTable.set(table_name, (byTable.get(table_name) ?? new Set()).add(column_name));
  const dump: Record<string, string[]> = {};
  const rows = async (table: string, where: string): Promise<string[]> =>
    (
      (await dataSource.query(
        `SELECT row_to_json(t)::text AS row FROM "${table}" t WHERE ${where} ORDER BY 1`,
        [businessId],
      )) as { row: string }[]
    ).map((r) => r.row);
  dump['businesses'] = await rows('businesses', 'id = $1');
  for (const [table, names] of [...byTable].sort(([a], [b]) => a.localeCompare(b))) {
    dump[table] = names.has('business_id')
      ? await rows(table, 'business_id = $1')
      : await rows(table, 'user_id IN (SELECT id FROM users WHERE business_id = $1)');
  }
  return dump;
}

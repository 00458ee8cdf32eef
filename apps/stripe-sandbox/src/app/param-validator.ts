import type { ParamSpec } from '../contract/stripe-operations';
import type { FormParams, FormValue } from './form-body';
import { invalidRequest, missingParameter, unknownParameter } from './stripe-error';

/** A checked parameter value: form strings converted to the contract's types. */
export type ParamValue = string | number | boolean | ParamValue[] | { [key: string]: ParamValue };
export type CheckedParams = Record<string, ParamValue>;

/** Stripe's metadata limits (https://docs.stripe.com/metadata#data): 50 keys, 40/500 chars. */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

const INTEGER = /^-?[0-9]{1,15}$/;
const NUMBER = /^-?[0-9]{1,15}(\.[0-9]{1,12})?$/;
const RANGE_KEYS = ['gt', 'gte', 'lt', 'lte'];

/**
 * Checks parameters against an operation's contract and converts them: integers and numbers
 * parsed, booleans from 'true'/'false', '' for metadata or an array meaning "empty it" (Stripe's
 * `Emptyable`). Stripe's refusals (https://docs.stripe.com/error-codes): unknown name → 400
 * `parameter_unknown`; absent required → 400 `parameter_missing`; not an integer → 400
 * `parameter_invalid_integer`; an empty string where a value is needed → 400
 * `parameter_invalid_empty`; other bad values (enum, boolean, shape) → 400
 * `invalid_request_error` naming the param. Nested names are reported as Stripe writes them,
 * e.g. `line_items[0][price]`.
 */
export function checkParams(
  params: FormParams,
  spec: Readonly<Record<string, ParamSpec>>,
  prefix = '',
): CheckedParams {
  const name = (key: string) => (prefix ? `${prefix}[${key}]` : key);
  for (const key of Object.keys(params))
    if (!Object.hasOwn(spec, key)) throw unknownParameter(name(key));
  const checked: CheckedParams = {};
  for (const [key, rule] of Object.entries(spec)) {
    const value = params[key];
    if (value === undefined) {
      if (rule.required) throw missingParameter(name(key));
      continue;
    }
    checked[key] = checkValue(value, rule, name(key));
  }
  return checked;
}

function checkValue(value: FormValue, rule: ParamSpec, param: string): ParamValue {
  if (value === '' && rule.type !== 'metadata' && rule.type !== 'array') {
    if (rule.type === 'string' && !rule.required) return '';
    throw invalidRequest(
      `You passed an empty string for '${param}'. We assume empty values are an attempt to unset a parameter; however '${param}' cannot be unset. You should remove '${param}' from your request or supply a non-empty value.`,
      param,
      'parameter_invalid_empty',
    );
  }
  switch (rule.type) {
    case 'string': {
      const text = scalar(value, param);
      if (rule.maxLength !== undefined && text.length > rule.maxLength)
        throw invalidRequest(
          `Invalid ${param}: must be at most ${rule.maxLength} characters`,
          param,
          'parameter_invalid_string_length',
        );
      return text;
    }
    case 'integer':
    case 'number': {
      const text = scalar(value, param);
      const pattern = rule.type === 'integer' ? INTEGER : NUMBER;
      if (!pattern.test(text))
        throw invalidRequest(
          `Invalid ${rule.type === 'integer' ? 'integer' : 'decimal'}: ${text}`,
          param,
          rule.type === 'integer' ? 'parameter_invalid_integer' : undefined,
        );
      const number = Number(text);
      if (
        (rule.min !== undefined && number < rule.min) ||
        (rule.max !== undefined && number > rule.max)
      )
        throw invalidRequest(
          `Invalid ${param}: must be between ${rule.min ?? '-∞'} and ${rule.max ?? '∞'}`,
          param,
        );
      return number;
    }
    case 'boolean': {
      const text = scalar(value, param);
      if (text !== 'true' && text !== 'false')
        throw invalidRequest(`Invalid boolean: ${text}`, param);
      return text === 'true';
    }
    case 'enum': {
      const text = scalar(value, param);
      if (!rule.values.includes(text))
        throw invalidRequest(`Invalid ${param}: must be one of ${rule.values.join(', ')}`, param);
      return text;
    }
    case 'metadata':
      return checkMetadata(value, param);
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value))
        throw invalidRequest(`Invalid object`, param);
      return checkParams(value, rule.properties, param);
    case 'array': {
      if (value === '') return [];
      if (!Array.isArray(value)) throw invalidRequest(`Invalid array`, param);
      if (value.length > rule.maxItems)
        throw invalidRequest(`Invalid ${param}: at most ${rule.maxItems} items`, param);
      return value.map((item, index) => checkValue(item, rule.items, `${param}[${index}]`));
    }
    case 'range':
      return checkRange(value, param);
  }
}

function scalar(value: FormValue, param: string): string {
  if (typeof value !== 'string')
    throw invalidRequest(`Invalid ${param}: expected a single value, got a hash or array`, param);
  return value;
}

function checkMetadata(value: FormValue, param: string): Record<string, string> {
  if (value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidRequest(`Invalid object`, param);
  const entries = Object.entries(value);
  if (entries.length > METADATA_LIMITS.keys)
    throw invalidRequest(`Metadata can have at most ${METADATA_LIMITS.keys} keys.`, param);
  const metadata: Record<string, string> = {};
  for (const [key, text] of entries) {
    const keyName = `${param}[${key}]`;
    if (typeof text !== 'string')
      throw invalidRequest(`Invalid ${keyName}: expected a string`, keyName);
    if (key.length > METADATA_LIMITS.keyLength || text.length > METADATA_LIMITS.valueLength)
      throw invalidRequest(
        `Metadata keys are at most ${METADATA_LIMITS.keyLength} characters and values at most ${METADATA_LIMITS.valueLength}.`,
        keyName,
      );
    metadata[key] = text;
  }
  return metadata;
}

function checkRange(value: FormValue, param: string): ParamValue {
  if (typeof value === 'string') return checkValue(value, { type: 'integer' }, param);
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidRequest('Invalid range', param);
  const range: Record<string, ParamValue> = {};
  for (const [key, bound] of Object.entries(value)) {
    if (!RANGE_KEYS.includes(key)) throw unknownParameter(`${param}[${key}]`);
    range[key] = checkValue(bound, { type: 'integer' }, `${param}[${key}]`);
  }
  return range;
}

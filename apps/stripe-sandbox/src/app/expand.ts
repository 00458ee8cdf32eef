import { invalidRequest } from './stripe-error';

/** Finds an object by id (any kind), or undefined. */
export type ObjectResolver = (id: string) => object | undefined;

/** Deepest expansion path, levels (Stripe: 4; https://docs.stripe.com/expand). */
export const MAX_EXPAND_DEPTH = 4;

/**
 * A copy of `object` with the `expand[]` paths expanded as Stripe does
 * (https://docs.stripe.com/expand): a field holding an id, or an array of ids, is replaced by the
 * object(s); on a list, paths start with `data.` (e.g. `data.customer`); dotted paths go deeper
 * (`subscription.latest_invoice`). @throws StripeRequestError 400 "This property cannot be
 * expanded" for a path that names no id field
 */
export function expandObject<T>(object: T, paths: readonly string[], resolve: ObjectResolver): T {
  const copy = structuredClone(object) as Record<string, unknown>;
  for (const path of paths) {
    const parts = path.split('.');
    if (parts.length > MAX_EXPAND_DEPTH)
      throw invalidRequest(
        `You cannot expand more than ${MAX_EXPAND_DEPTH} levels of a property. Property: ${path}`,
        'expand',
      );
    expandPath(copy, parts, path, resolve);
  }
  return copy as T;
}

function expandPath(
  target: Record<string, unknown>,
  parts: string[],
  path: string,
  resolve: ObjectResolver,
): void {
  const [head, ...rest] = parts;
  const refuse = () => invalidRequest(`This property cannot be expanded (${path}).`, 'expand');
  // Own fields only: `__proto__` or `constructor` name no field of a Stripe object.
  if (!Object.hasOwn(target, head)) throw refuse();
  const value = target[head];
  if (head === 'data' && Array.isArray(value) && target.object === 'list') {
    for (const item of value) expandPath(item as Record<string, unknown>, rest, path, resolve);
    return;
  }
  if (value === null) return;
  const expandOne = (item: unknown): unknown => {
    if (typeof item === 'string') {
      const found = resolve(item);
      if (!found) throw refuse();
      return structuredClone(found);
    }
    if (typeof item === 'object' && item !== null) return item;
    throw refuse();
  };
  if (Array.isArray(value)) target[head] = value.map(expandOne);
  else target[head] = expandOne(value);
  if (rest.length === 0) return;
  const next = target[head];
  for (const item of Array.isArray(next) ? next : [next])
    expandPath(item as Record<string, unknown>, rest, path, resolve);
}

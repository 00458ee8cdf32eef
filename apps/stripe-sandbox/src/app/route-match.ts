import { STRIPE_OPERATIONS, type StripeOperationId } from '../contract/stripe-operations';

/** A request matched to a contract operation, with its path parameters (decoded). */
export interface MatchedOperation {
  operationId: StripeOperationId;
  pathParams: Record<string, string>;
}

const ROUTES = Object.entries(STRIPE_OPERATIONS).map(([operationId, operation]) => {
  const names: string[] = [];
  const pattern = operation.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]{1,255})';
  });
  return {
    operationId: operationId as StripeOperationId,
    method: operation.method,
    pattern: new RegExp(`^${pattern}$`),
    names,
  };
});

/**
 * The contract operation for `METHOD /path`, or undefined (Stripe then answers 404
 * "Unrecognized request URL"). A literal segment wins over a path parameter, as in Stripe's routing.
 */
export function matchOperation(method: string, path: string): MatchedOperation | undefined {
  const candidates = ROUTES.filter((route) => route.method === method && route.pattern.test(path));
  const route = candidates.sort((a, b) => a.names.length - b.names.length)[0];
  if (!route) return undefined;
  const values = route.pattern.exec(path)?.slice(1) ?? [];
  const pathParams: Record<string, string> = {};
  route.names.forEach((name, index) => {
    pathParams[name] = safeDecode(values[index]);
  });
  return { operationId: route.operationId, pathParams };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

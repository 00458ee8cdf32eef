/**
 * A fault switch: makes matching sandbox requests slow, fail with a status, or lose their
 * connection. Not part of Mindbody's API; set through `/_sandbox/faults`, the programmatic
 * control, or `MINDBODY_SANDBOX_FAULTS` (a JSON array of these) at start.
 */
export interface FaultRule {
  /** Assigned by the sandbox when the rule is added. */
  id?: string;
  /**
   * Path the rule applies to, matched case-insensitively against the end of the request path:
   * '/client/clients', '/public/v6/usertoken/issue', '/push/api/v1/subscriptions'; '*' = every
   * Mindbody path (never the control API).
   */
  path: string;
  /** Only this HTTP method (default any). */
  method?: string;
  /** Only requests whose `request.offset` is this number. */
  offset?: number;
  /** Only this 1-based page: `request.offset` / `request.limit` + 1 (limit default 100). */
  page?: number;
  /** Delay before answering, ms (alone, or before the status/drop). */
  latencyMs?: number;
  /** Answer with this HTTP status and Mindbody's error body (e.g. 429, 500, 503). */
  status?: number;
  /** With status 429 (or any status): the `Retry-After` header, seconds. */
  retryAfterSeconds?: number;
  /** Destroy the socket without answering (a dropped connection). */
  drop?: boolean;
  /** Apply to the next N matching calls only; absent = permanently until removed. */
  times?: number;
  /**
   * Handle the request first (it takes effect), then lose the reply (`drop`) or answer `status`
   * instead: a reply lost on the way back, after Mindbody did the work (default false).
   */
  afterHandling?: boolean;
}

/** What a matched rule asks the server to do. */
export interface FaultAction {
  latencyMs: number;
  status?: number;
  retryAfterSeconds?: number;
  drop: boolean;
  afterHandling: boolean;
}

/** Checks a rule's shape; returns an error message or null. */
export function invalidFaultRule(rule: unknown): string | null {
  if (!rule || typeof rule !== 'object') return 'a fault rule must be an object';
  const value = rule as Record<string, unknown>;
  if (typeof value.path !== 'string' || value.path === '') return 'path is required';
  for (const key of [
    'offset',
    'page',
    'latencyMs',
    'status',
    'retryAfterSeconds',
    'times',
  ] as const) {
    if (
      value[key] !== undefined &&
      (typeof value[key] !== 'number' || !Number.isFinite(value[key]) || (value[key] as number) < 0)
    ) {
      return `${key} must be a non-negative number`;
    }
  }
  if (
    value.status !== undefined &&
    ((value.status as number) < 100 || (value.status as number) > 599)
  )
    return 'status must be an HTTP status';
  if (value.drop !== undefined && typeof value.drop !== 'boolean') return 'drop must be a boolean';
  if (value.afterHandling !== undefined && typeof value.afterHandling !== 'boolean')
    return 'afterHandling must be a boolean';
  if (value.latencyMs === undefined && value.status === undefined && !value.drop)
    return 'give latencyMs, status or drop';
  return null;
}

/** The active fault rules, first match wins; a rule with `times` is used up after N matches. */
export class FaultSwitches {
  private rules: (FaultRule & { id: string })[] = [];
  private nextId = 1;

  /** Adds a rule (validated by the caller); returns it with its id. */
  add(rule: FaultRule): FaultRule & { id: string } {
    const stored = { ...rule, id: rule.id ?? `fault-${this.nextId++}` };
    this.rules.push(stored);
    return stored;
  }

  /** The rules still active. */
  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** Removes one rule; false when unknown. */
  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length !== before;
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /**
   * The action for one request, consuming one use of the matched rule, or null.
   * @param pathname the request path (e.g. '/public/v6/client/clients')
   * @param params the query (for `request.offset` / `request.limit`)
   */
  match(method: string, pathname: string, params: URLSearchParams): FaultAction | null {
    const path = pathname.toLowerCase();
    const offset = Number(params.get('request.offset') ?? 0);
    const limit = Number(params.get('request.limit') ?? 100);
    const index = this.rules.findIndex(
      (rule) =>
        (rule.path === '*' || path.endsWith(rule.path.toLowerCase())) &&
        (!rule.method || rule.method.toUpperCase() === method.toUpperCase()) &&
        (rule.offset === undefined || rule.offset === offset) &&
        (rule.page === undefined || (limit > 0 && Math.floor(offset / limit) + 1 === rule.page)),
    );
    if (index < 0) return null;
    const rule = this.rules[index];
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) this.rules.splice(index, 1);
    }
    return {
      latencyMs: rule.latencyMs ?? 0,
      status: rule.status,
      retryAfterSeconds: rule.retryAfterSeconds,
      drop: rule.drop ?? false,
      afterHandling: rule.afterHandling ?? false,
    };
  }
}

import type { Counter } from 'prom-client';
import type { MetricsService } from '../../../platform/metrics/metrics.service';

/**
 * Grove's Mindbody calls as Prometheus counters (docs/architecture.md#metrics), registered
 * through platform's `MetricsService`: Mindbody bills API calls, so an operator watches who
 * makes them.
 * - `grove_mindbody_requests_total{operation}`: every request sent (Public API and Webhooks API,
 *   retries included), by the official operationId;
 * - `grove_mindbody_business_requests_total{business}`: the requests of a business's stored
 *   connection (`MindbodySiteSession`: its imports, syncs, price writes, webhook follow-ups, staff
 *   token issues), by business id (docs/decisions/metrics-labels.md). The wizard's calls before a
 *   connection is stored and the developer account's webhook subscription calls count only in
 *   the first.
 */
export class MindbodyMetrics {
  private readonly requests: Counter<'operation'>;
  private readonly businessRequests: Counter<'business'>;

  constructor(metrics: MetricsService) {
    this.requests = metrics.counter({
      name: 'grove_mindbody_requests_total',
      help: 'Requests sent to Mindbody (Public API and Webhooks API), retries included, by official operationId',
      labelNames: ['operation'],
    });
    this.businessRequests = metrics.counter({
      name: 'grove_mindbody_business_requests_total',
      help: "Requests sent to Mindbody on a business's stored connection (imports, syncs, price writes, staff token issues; retries included), by business id",
      labelNames: ['business'],
    });
  }

  /** Counts one request of `operation` (a `MINDBODY_OPERATIONS` key). */
  request(operation: string): void {
    this.requests.inc({ operation });
  }

  /** Counts one request sent for `businessId`. */
  businessRequest(businessId: string): void {
    this.businessRequests.inc({ business: businessId });
  }
}

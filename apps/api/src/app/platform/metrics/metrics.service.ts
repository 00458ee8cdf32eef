import { Injectable } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

/** Node's own metrics (CPU, memory, event loop lag, GC), collected once per process. */
let processRegistry: Registry | undefined;
function nodeProcessRegistry(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** What a collector reads at scrape time; it sets its gauge's values itself. */
export type GaugeCollector<L extends string> = (gauge: Gauge<L>) => Promise<void> | void;

/**
 * The API's Prometheus metrics (prom-client), served by `MetricsServer` on METRICS_PORT
 * (docs/architecture.md#metrics). Each area registers its own metrics here (a counter, gauge or
 * histogram by name; registering a name again returns the same metric), so platform names no
 * area above it: e.g. integrations counts Mindbody calls per business, platform/mail the emails
 * sent and failed. Label values must come from a small fixed set (a route pattern, a queue, an
 * outcome) or from business ids (docs/decisions/metrics-labels.md); never a raw path, an email
 * or a member id.
 *
 * One registry per application (two API instances in one test process do not share counts);
 * Node's process metrics are collected once per process and appended to every scrape.
 */
@Injectable()
export class MetricsService {
  private readonly registry = new Registry();
  private readonly collectFailures: Counter<'metric'>;

  constructor() {
    this.collectFailures = this.counter({
      name: 'grove_metrics_collect_failures_total',
      help: 'Scrape-time reads that failed (e.g. the database did not answer); the metric is left out of that scrape',
      labelNames: ['metric'],
    });
  }

  /** A counter (registered once; the same name returns the same counter). */
  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return (
      this.existing<Counter<L>>(config.name) ??
      new Counter({ ...config, registers: [this.registry] })
    );
  }

  /** A histogram (registered once; the same name returns the same histogram). Values in seconds by convention. */
  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return (
      this.existing<Histogram<L>>(config.name) ??
      new Histogram({ ...config, registers: [this.registry] })
    );
  }

  /**
   * A gauge read at scrape time by `collect`, which sets its values. The gauge is reset before
   * each read (a label that disappeared, e.g. an emptied queue, goes away); when `collect` throws
   * the gauge is left out of that scrape and `grove_metrics_collect_failures_total{metric}` counts it,
   * so a database that does not answer never turns a scrape into an error.
   */
  gauge<L extends string>(
    config: Omit<GaugeConfiguration<L>, 'registers' | 'collect'>,
    collect: GaugeCollector<L>,
  ): Gauge<L> {
    const known = this.existing<Gauge<L>>(config.name);
    if (known) return known;
    const failures = this.collectFailures;
    return new Gauge<L>({
      ...config,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          await collect(this);
        } catch {
          this.reset();
          failures.inc({ metric: config.name });
        }
      },
    });
  }

  /**
   * Every metric in the Prometheus text exposition format (version 0.0.4): this application's,
   * then Node's process metrics.
   * @returns the body and its Content-Type
   */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const own = await this.registry.metrics();
    const node = await nodeProcessRegistry().metrics();
    return { contentType: this.registry.contentType, body: `${own}\n${node}` };
  }

  private existing<M>(name: string): M | undefined {
    return this.registry.getSingleMetric(name) as M | undefined;
  }
}

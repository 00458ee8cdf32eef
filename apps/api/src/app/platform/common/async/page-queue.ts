/**
 * Pages handed from a fetcher to a writer (e.g. one Mindbody import or sync): at most `limit`
 * waiting. The fetcher `push`es, then `end`s or `fail`s; the writer `takeAll`s and finally
 * `close`s (which stops a fetcher still waiting for room).
 */
export class PageQueue<T> {
  private items: T[] = [];
  private ended = false;
  private closed = false;
  private failure: { error: unknown } | null = null;
  private wake: (() => void) | null = null;

  /** @param limit pages that may wait before the fetcher must wait for room, ≥ 1 */
  constructor(private readonly limit: number) {}

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private async changed(): Promise<void> {
    await new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** Fetcher: waits until fewer than `limit` pages wait; false when the writer has closed. */
  async waitForRoom(): Promise<boolean> {
    while (!this.closed && this.items.length >= this.limit) await this.changed();
    return !this.closed;
  }

  /** Fetcher: hands over one page (call {@link waitForRoom} first to respect the limit). */
  push(item: T): void {
    this.items.push(item);
    this.signal();
  }

  /** Fetcher: no more pages will come. */
  end(): void {
    this.ended = true;
    this.signal();
  }

  /** Fetcher: fetching failed; the writer gets `error` once it has taken the pages before it. */
  fail(error: unknown): void {
    this.failure = { error };
    this.signal();
  }

  /**
   * Writer: every waiting page (waits for at least one); null once the fetcher has ended and all
   * was taken.
   * @throws the fetcher's error, once the pages that arrived before it are taken
   */
  async takeAll(): Promise<T[] | null> {
    while (this.items.length === 0 && !this.ended && !this.failure) await this.changed();
    if (this.items.length > 0) {
      const taken = this.items;
      this.items = [];
      this.signal();
      return taken;
    }
    if (this.failure) throw this.failure.error;
    return null;
  }

  /** Writer: stops taking; a fetcher waiting for room (or asking next) gets false. */
  close(): void {
    this.closed = true;
    this.signal();
  }
}

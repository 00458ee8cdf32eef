/**
 * A listener of one event: awaited by the emitter, in registration order.
 * @throws what the listener's work throws; the emitter's caller sees it (and a transaction the
 *   emitter runs in rolls back)
 */
export type EventListener<Payload> = (payload: Payload) => Promise<unknown> | unknown;

/**
 * A small typed event registry for announcements from a lower area to the areas above it
 * (docs/architecture.md#api-areas): the emitter names only the event, listeners register at module
 * start (`onModuleInit`). `emit` awaits every listener in order, so a listener's work happens
 * where the emitter's direct call used to (inside its transaction when the payload carries the
 * transaction's manager) and a listener's error reaches the emitter.
 *
 * Why not `@nestjs/event-emitter`: its `emitAsync` runs listeners concurrently (unsafe on one
 * transaction's connection) and its payloads are `any`; here `Events` maps each event name to its
 * payload type, checked at compile time on both sides.
 */
export class EventBus<Events extends object> {
  private readonly listeners = new Map<keyof Events, EventListener<never>[]>();

  /**
   * Registers `listener` for `event` (call once, from a module's `onModuleInit`).
   * @returns a function that removes it
   */
  on<Name extends keyof Events>(event: Name, listener: EventListener<Events[Name]>): () => void {
    const list = this.listeners.get(event) ?? [];
    list.push(listener as EventListener<never>);
    this.listeners.set(event, list);
    return () => {
      const at = list.indexOf(listener as EventListener<never>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /**
   * Announces `event`: awaits each listener in registration order.
   * @throws the first listener error (later listeners do not run)
   */
  async emit<Name extends keyof Events>(event: Name, payload: Events[Name]): Promise<void> {
    for (const listener of this.listeners.get(event) ?? []) {
      await (listener as EventListener<Events[Name]>)(payload);
    }
  }

  /** How many listeners `event` has (for tests and start-up checks). */
  listenerCount(event: keyof Events): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

import type { MindbodyStatus } from '@grove/contracts';

/** What the wizard shows for docs/product.md#mindbody-stages's process state. */
export type ProcessView =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number | null }
  | { kind: 'completed'; at: Date | null }
  | { kind: 'failed'; at: Date | null };

/**
 * Reads docs/product.md#mindbody-stages's process state text: null (idle), 'running', 'completed <ISO time>' or
 * 'failed <ISO time>' (any state containing 'fail' counts as failed; the time is its second word).
 */
export function processView(
  status: Pick<MindbodyStatus, 'processState' | 'progress'>,
): ProcessView {
  const state = status.processState;
  if (!state) return { kind: 'idle' };
  if (state === 'running') {
    const total = status.progress && status.progress.total > 0 ? status.progress.total : null;
    return { kind: 'running', done: status.progress?.done ?? 0, total };
  }
  const second = state.split(/\s+/)[1];
  const time = second ? new Date(second) : null;
  const at = time && !Number.isNaN(time.getTime()) ? time : null;
  return state.includes('fail') ? { kind: 'failed', at } : { kind: 'completed', at };
}

const timeFormat = new Intl.DateTimeFormat('en-AU', { dateStyle: 'medium', timeStyle: 'short' });

/** A time for people, e.g. '21 Nov 2026, 10:42 am' (en-AU, the product's locale). */
export function formatWhen(time: Date | string): string {
  return timeFormat.format(typeof time === 'string' ? new Date(time) : time);
}

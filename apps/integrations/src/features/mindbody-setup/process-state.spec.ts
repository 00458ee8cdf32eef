import { formatWhen, processView } from './process-state';

describe('processView (docs/product.md#mindbody-stages process state)', () => {
  it('is idle without a state', () => {
    expect(processView({ processState: null, progress: null })).toEqual({ kind: 'idle' });
  });

  it('reads running with its progress, total unknown until the first page', () => {
    expect(processView({ processState: 'running', progress: { done: 400, total: 2500 } })).toEqual({
      kind: 'running',
      done: 400,
      total: 2500,
    });
    expect(processView({ processState: 'running', progress: { done: 0, total: 0 } })).toEqual({
      kind: 'running',
      done: 0,
      total: null,
    });
  });

  it("takes the time of a failure from the state's second word", () => {
    const view = processView({ processState: 'failed 2026-11-21T09:30:00.000Z', progress: null });
    expect(view).toEqual({ kind: 'failed', at: new Date('2026-11-21T09:30:00.000Z') });
    expect(processView({ processState: 'import failed', progress: null })).toEqual({
      kind: 'failed',
      at: null,
    });
    expect(
      processView({ processState: 'completed 2026-11-21T09:30:00.000Z', progress: null }).kind,
    ).toBe('completed');
  });

  it('formats times for people', () => {
    expect(formatWhen('2026-11-21T09:30:00.000Z')).toMatch(/21 Nov 2026/);
  });
});

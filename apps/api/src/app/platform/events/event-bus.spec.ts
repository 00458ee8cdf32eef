import { EventBus } from './event-bus';

interface TestEvents {
  'member.added': { id: string };
  'branch.ended': { branchId: string };
}

describe('EventBus', () => {
  it('awaits each listener of an event in registration order, and only that event’s', async () => {
    const bus = new EventBus<TestEvents>();
    const seen: string[] = [];
    bus.on('member.added', async ({ id }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(`first ${id}`);
    });
    bus.on('member.added', ({ id }) => seen.push(`second ${id}`));
    bus.on('branch.ended', ({ branchId }) => seen.push(`ended ${branchId}`));

    await bus.emit('member.added', { id: 'm1' });

    expect(seen).toEqual(['first m1', 'second m1']);
  });

  it('passes a listener’s error to the emitter and runs no later listener', async () => {
    const bus = new EventBus<TestEvents>();
    const later = jest.fn();
    bus.on('branch.ended', () => {
      throw new Error('queue down');
    });
    bus.on('branch.ended', later);

    await expect(bus.emit('branch.ended', { branchId: 'b1' })).rejects.toThrow('queue down');
    expect(later).not.toHaveBeenCalled();
  });

  it('forgets a listener removed with the function `on` returned', async () => {
    const bus = new EventBus<TestEvents>();
    const listener = jest.fn();
    const off = bus.on('member.added', listener);
    off();
    await bus.emit('member.added', { id: 'm2' });
    expect(listener).not.toHaveBeenCalled();
    expect(bus.listenerCount('member.added')).toBe(0);
  });
});

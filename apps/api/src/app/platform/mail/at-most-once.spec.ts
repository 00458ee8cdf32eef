import { sendClaimed } from './at-most-once';

/** A claim that records what was done to it. */
function claimOf(granted: boolean) {
  const steps: string[] = [];
  return {
    steps,
    claim: async () => {
      steps.push('claim');
      return granted;
    },
    unclaim: async () => {
      steps.push('unclaim');
    },
  };
}

describe('sendClaimed (the at-most-once rule of every email)', () => {
  it('sends after the claim, and returns what the send returned', async () => {
    const delivery = claimOf(true);
    const send = jest.fn(async () => 'sent');
    expect(await sendClaimed(delivery, send)).toBe('sent');
    expect(delivery.steps).toEqual(['claim']);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends nothing when the claim is refused (an earlier attempt has it or ended it)', async () => {
    const delivery = claimOf(false);
    const send = jest.fn(async () => 'sent');
    expect(await sendClaimed(delivery, send)).toBeNull();
    expect(send).not.toHaveBeenCalled();
  });

  it('takes the claim back when the server cannot have accepted the email (451, no connection)', async () => {
    for (const error of [
      Object.assign(new Error('try again later'), { responseCode: 451 }),
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ]) {
      const delivery = claimOf(true);
      await expect(sendClaimed(delivery, () => Promise.reject(error))).rejects.toBe(error);
      expect(delivery.steps).toEqual(['claim', 'unclaim']);
    }
  });

  it('keeps the claim when the server may have it (the connection lost after the message)', async () => {
    const delivery = claimOf(true);
    const lost = Object.assign(new Error('Connection closed unexpectedly'), {
      code: 'ECONNECTION',
    });
    await expect(sendClaimed(delivery, () => Promise.reject(lost))).rejects.toBe(lost);
    expect(delivery.steps).toEqual(['claim']);
  });
});

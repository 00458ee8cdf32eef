import { writeBatches } from './write-batches';

describe('writeBatches', () => {
  it('cuts items into batches of the size, in order, the last one shorter', () => {
    expect(writeBatches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(writeBatches(['a', 'b'], 500)).toEqual([['a', 'b']]);
    expect(writeBatches([], 500)).toEqual([]);
  });

  it('refuses a size that would loop forever or lose items', () => {
    expect(() => writeBatches([1], 0)).toThrow(RangeError);
    expect(() => writeBatches([1], 1.5)).toThrow(RangeError);
  });
});

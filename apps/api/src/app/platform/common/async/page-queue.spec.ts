import { PageQueue } from './page-queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('PageQueue', () => {
  it('hands the writer every page that arrived meanwhile, in order, then null once ended', async () => {
    const queue = new PageQueue<string>(5);
    queue.push('a');
    queue.push('b');
    expect(await queue.takeAll()).toEqual(['a', 'b']);
    queue.push('c');
    queue.end();
    expect(await queue.takeAll()).toEqual(['c']);
    expect(await queue.takeAll()).toBeNull();
  });

  it('makes the writer wait for the next page', async () => {
    const queue = new PageQueue<number>(2);
    const taken = queue.takeAll();
    await tick();
    queue.push(1);
    await expect(taken).resolves.toEqual([1]);
  });

  it('makes the fetcher wait while `limit` pages wait, until the writer takes them', async () => {
    const queue = new PageQueue<number>(2);
    queue.push(1);
    queue.push(2);
    let room: boolean | null = null;
    void queue.waitForRoom().then((value) => (room = value));
    await tick();
    expect(room).toBeNull();
    expect(await queue.takeAll()).toEqual([1, 2]);
    await tick();
    expect(room).toBe(true);
  });

  it('tells a waiting fetcher there is no room any more once the writer closes', async () => {
    const queue = new PageQueue<number>(1);
    queue.push(1);
    const room = queue.waitForRoom();
    queue.close();
    await expect(room).resolves.toBe(false);
    await expect(queue.waitForRoom()).resolves.toBe(false);
  });

  it("gives the writer the pages before a failure first, then the fetcher's error", async () => {
    const queue = new PageQueue<number>(5);
    queue.push(1);
    queue.fail(new Error('Mindbody is down'));
    expect(await queue.takeAll()).toEqual([1]);
    await expect(queue.takeAll()).rejects.toThrow('Mindbody is down');
  });
});

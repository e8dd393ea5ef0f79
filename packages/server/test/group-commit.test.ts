import { describe, expect, it } from 'vitest';
import { GroupCommitter, QueueFull } from '../src/lib/group-commit.ts';

/** A committer whose batches finish only when the test says so. */
function gated(options: { maxQueuedRows: number; roomWaitMs: number }) {
  const batches: { items: string[]; finish(): void }[] = [];
  const committer = new GroupCommitter<string, string>(
    (items) =>
      new Promise((resolve) => {
        batches.push({ items, finish: () => resolve(items.map((i) => `stored ${i}`)) });
      }),
    { maxRows: 2, concurrency: 1, ...options },
  );
  return { committer, batches };
}

/** Let the committer's promise callbacks and its next-turn scheduling run. */
const tick = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

describe('the ingest queue', () => {
  it('refuses a caller at once when its limit is reached, and takes callers again once it drains', async () => {
    const { committer, batches } = gated({ maxQueuedRows: 4, roomWaitMs: 1000 });
    const first = committer.submit('a', 2);
    await tick(); // 'a' is being written: the queue is empty again
    const queued = [committer.submit('b', 2), committer.submit('c', 2)];
    expect(committer.depth).toBe(4);
    await expect(committer.submit('d', 1)).rejects.toEqual(new QueueFull(false));
    expect(committer.depth).toBe(4);

    batches[0]!.finish();
    expect(await first).toBe('stored a');
    await tick();
    expect(committer.depth).toBe(2);
    const later = committer.submit('e', 1);
    batches[1]!.finish();
    await tick();
    batches[2]!.finish();
    await tick();
    batches[3]!.finish();
    expect(await Promise.all([...queued, later])).toEqual(['stored b', 'stored c', 'stored e']);
  });

  it('lets waiting callers in, oldest first, as room frees, and refuses them after the wait', async () => {
    const { committer, batches } = gated({ maxQueuedRows: 2, roomWaitMs: 50 });
    const done: string[] = [];
    const track = (p: Promise<string>) => p.then((r) => done.push(r));
    void track(committer.submit('a', 2));
    await tick();
    void track(committer.submit('b', 2));
    const waiting = [track(committer.submit('c', 2, 'wait')), track(committer.submit('d', 2, 'wait'))];
    // 'c' and 'd' wait: the queue already holds its limit.
    expect(committer.depth).toBe(2);

    batches[0]!.finish(); // 'b' goes to be written, 'c' takes its place; 'd' still waits
    await tick();
    expect(committer.depth).toBe(2);
    expect(batches.map((b) => b.items)).toEqual([['a'], ['b']]);

    // Nobody finishes 'b' in time: 'd' has waited its 50 ms and is refused; nothing of it was queued.
    await expect(waiting[1]).rejects.toEqual(new QueueFull(true));
    batches[1]!.finish();
    await tick();
    batches[2]!.finish();
    await waiting[0];
    expect(done).toEqual(['stored a', 'stored b', 'stored c']);
    expect(committer.depth).toBe(0);
  });
});

/**
 * `work`, or a rejection saying `what` had no answer once `ms` have passed. The timer never keeps
 * the process alive; `work` itself goes on (nothing here can cancel it).
 */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Waits for `work` to settle, at most `ms`: true when it did (fulfilled or rejected), false when
 * the time ran out. For shutdown, where a step stuck on a dead connection must not hold the rest.
 */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return withTimeout(
    work.then(
      () => true,
      () => true,
    ),
    ms,
    'shutdown step',
  ).catch(() => false);
}

interface Waiting {
  shared: boolean;
  start(): void;
}

/**
 * Turns taken in the order asked for, shared or alone: shared turns run together, a turn alone
 * runs once the turns before it have ended and holds back every turn after it. (A read-write lock
 * that never lets a later turn pass an earlier one: neither kind can starve the other.)
 */
export class Turns {
  readonly #queue: Waiting[] = [];
  #shared = 0;
  #alone = false;

  /** Runs `fn` in a turn of its own. */
  alone<T>(fn: () => Promise<T>): Promise<T> {
    return this.#take(false, fn);
  }

  /** Runs `fn` in a turn it shares with the shared turns asked for around it. */
  shared<T>(fn: () => Promise<T>): Promise<T> {
    return this.#take(true, fn);
  }

  async #take<T>(shared: boolean, fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.#queue.push({ shared, start });
      this.#next();
    });
    try {
      return await fn();
    } finally {
      if (shared) this.#shared -= 1;
      else this.#alone = false;
      this.#next();
    }
  }

  #next() {
    while (!this.#alone) {
      const head = this.#queue[0];
      if (!head || (!head.shared && this.#shared > 0)) return;
      this.#queue.shift();
      if (head.shared) this.#shared += 1;
      else this.#alone = true;
      head.start();
    }
  }
}

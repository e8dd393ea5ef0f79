/** A build yields to the event loop after this long of JavaScript (see `Slice`). */
export const SLICE_MS = 5;

/**
 * Work of one build split into slices of at most `SLICE_MS`, each a task of its own: the requests
 * that arrive meanwhile are answered between them (from the build before), not after the whole.
 */
export class Slice {
  private started = performance.now();

  /** A new slice starts here: after an await, the time spent waiting was not work. */
  restart(): void {
    this.started = performance.now();
  }

  /** This slice has run `SLICE_MS`. */
  isLong(): boolean {
    return performance.now() - this.started >= SLICE_MS;
  }

  /** The next slice, on the event loop's next turn. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

/** One build of a user's snapshot: when it started (its data is at least this fresh) and its result. */
interface Build<T> {
  startedAt: number;
  value: Promise<T>;
}

interface UserBuilds<T> {
  /** The newest build that finished. */
  ready?: Build<T>;
  /** The build under way, if any. */
  building?: Build<T>;
}

/**
 * Each user's board snapshot, built once for everyone asking at once (single flight) and reused
 * while young: twenty requests of one board cost one build, not twenty.
 *
 * A build is reused up to `maxAgeMs` after it started; past half of that, the next request starts a
 * new one in the background and is still answered with the young one (stale-while-revalidate), so
 * a board under load never waits for a build. A request with `after` (the time its socket
 * connected) takes only a build started after it: what happened while the socket was down must be
 * in its snapshot.
 *
 * A user whose access changes (a team or device left or gained) is `forget`-ten at once, their
 * builds under way included, on every process (see `BoardService.accessChanged`): a board never
 * lists a device its user may no longer see. New readings and alerts invalidate nothing: a reused
 * body is at most `maxAgeMs` old, everything that changed since its `at` reached the board's socket
 * as a live event (the socket was up, or `after` forced a newer build), and the board replays the
 * live events newer than a snapshot's `at` onto it, so whichever process answers, a carer never
 * sees an older state than they had.
 */
export class SnapshotCache<T> {
  private readonly build: (userId: string, at: Date) => Promise<T>;
  private readonly maxAgeMs: number;
  private readonly users = new Map<string, UserBuilds<T>>();

  constructor(build: (userId: string, at: Date) => Promise<T>, maxAgeMs: number) {
    this.build = build;
    this.maxAgeMs = maxAgeMs;
  }

  /** The user's snapshot: a young enough build (started after `after`), or a new one. */
  get(userId: string, after = Number.NEGATIVE_INFINITY): Promise<T> {
    const now = Date.now();
    // Started after `after`, strictly: one started in the same millisecond may have read the
    // database before what the caller just saw happen. A client clock ahead of the server's asks
    // for a build started now, no later.
    const since = Math.min(after, now - 1);
    let builds = this.users.get(userId);
    if (!builds) {
      builds = {};
      this.users.set(userId, builds);
    }
    const { ready, building } = builds;
    if (ready && ready.startedAt > since && now - ready.startedAt <= this.maxAgeMs) {
      if (!building && now - ready.startedAt >= this.maxAgeMs / 2) this.start(userId, builds, now);
      return ready.value;
    }
    if (building && building.startedAt > since) return building.value;
    return this.start(userId, builds, now).value;
  }

  /**
   * Drops the user's builds, finished and under way: the next request builds afresh (a build under
   * way still answers those already waiting for it, and is kept by no one).
   */
  forget(userId: string): void {
    this.users.delete(userId);
  }

  private start(userId: string, builds: UserBuilds<T>, now: number): Build<T> {
    this.forgetOld(now);
    this.users.set(userId, builds);
    const build: Build<T> = { startedAt: now, value: this.build(userId, new Date(now)) };
    builds.building = build;
    build.value.then(
      () => {
        if (builds.building === build) builds.building = undefined;
        if (!builds.ready || builds.ready.startedAt < build.startedAt) builds.ready = build;
      },
      // A failed build reaches the requests that wait for it; the next request starts another.
      () => {
        if (builds.building === build) builds.building = undefined;
      },
    );
    return build;
  }

  /** Drops the builds no request may take any more (a board not asked for in `maxAgeMs`). */
  private forgetOld(now: number): void {
    for (const [userId, { ready, building }] of this.users) {
      if (!building && (!ready || now - ready.startedAt > this.maxAgeMs)) this.users.delete(userId);
    }
  }
}

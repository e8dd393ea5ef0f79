import { Fragment, type ReactNode } from 'react';
import { runsByLevel, type TriagedDevice } from '../utils/triage.ts';

/** From this many tiles on (more than two screens of the widest grid), off-screen tiles skip rendering. */
const SKIP_OFFSCREEN_FROM = 25;
/**
 * `content-visibility: auto` clips what a tile draws outside its item (it implies paint
 * containment): the item reaches 4 px into the gap around it (`-m-1 p-1`), so the urgent tile's
 * ring and the shadows stay whole, and the tile sits where it would without it.
 */
const SKIP_OFFSCREEN = '-m-1 p-1 [contain-intrinsic-size:auto_12rem] [content-visibility:auto]';

/**
 * The board's tiles as one list, most urgent first. Each triage level's tiles are a keyed fragment
 * of their own: a tile whose level changes leaves one fragment and joins another (that tile's DOM
 * made anew, so focus inside it is lost), and within a level the order is by name, so no other
 * tile moves. As one flat keyed list, a tile rising to the top made React move every tile it
 * passed (React moves each tile found before the last one kept in place): with 200 devices at
 * 1 Hz, 687 ms a minute in `insertBefore`, and a keyboard user's focus lost on any tile passed.
 *
 * On a large board, tiles out of view skip style, layout and paint (`content-visibility: auto`,
 * their last size kept): they stay in the accessibility tree and find-in-page, and render as they
 * scroll in. With 200 devices at 1 Hz (`npm run bench -- --phases board-browser`, README "Care
 * teams and the board") the main thread was busy 14-15 % of the time with 15-17 long tasks a
 * minute of up to 90-100 ms; with both, 6-8 % and at most 87 ms in a quiet hour.
 */
export function BoardTileList({
  items,
  className,
  tile,
}: {
  items: readonly TriagedDevice[];
  className: string;
  tile: (item: TriagedDevice) => ReactNode;
}) {
  const skipOffscreen = items.length >= SKIP_OFFSCREEN_FROM;
  return (
    <ul className={className} aria-label="Devices, most urgent first">
      {runsByLevel(items).map((run) => (
        <Fragment key={run[0]?.level}>
          {run.map((item) => (
            <li key={item.device._id} className={skipOffscreen ? SKIP_OFFSCREEN : undefined}>
              {tile(item)}
            </li>
          ))}
        </Fragment>
      ))}
    </ul>
  );
}

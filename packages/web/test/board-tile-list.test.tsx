import { render } from '@testing-library/react';
import type { BoardDevice, TriageLevel } from '@vitalwatch/shared';
import { describe, expect, it } from 'vitest';
import { BoardTileList } from '@/features/board/components/board-tile-list.tsx';
import { type TriagedDevice, triage } from '@/features/board/utils/triage.ts';

/** What the list reads of a device: its id and name, and its level. */
const item = (name: string, level: TriageLevel) =>
  ({ device: { _id: name, deviceName: name }, level }) as unknown as TriagedDevice;

const list = (items: TriagedDevice[]) => (
  <BoardTileList items={items} className="grid" tile={(t) => t.device.deviceName} />
);

describe('the board tile list', () => {
  it('moves only the tile whose level changed: one rising to the top moves no other tile', () => {
    const normal = Array.from({ length: 30 }, (_, i) => item(`Room ${String(i).padStart(2, '0')}`, 'normal'));
    const { container, rerender } = render(list(normal));
    const ul = container.querySelector('ul');
    if (!ul) throw new Error('no list');
    const before = [...ul.children];
    const observer = new MutationObserver(() => {});
    observer.observe(ul, { childList: true });

    rerender(list([item('Room 29', 'unacknowledged-high'), ...normal.slice(0, 29)]));

    const added = observer.takeRecords().flatMap((r) => [...r.addedNodes]);
    observer.disconnect();
    expect([...ul.children].map((li) => li.textContent)).toEqual([
      'Room 29',
      ...normal.slice(0, 29).map((t) => t.device.deviceName),
    ]);
    // One tile put in (the risen one); the other 29 stayed where they were, the same elements.
    expect(added).toHaveLength(1);
    expect([...ul.children].slice(1)).toEqual(before.slice(0, 29));
  });
});

describe('triage', () => {
  it('keeps a device’s item while its data and level stay the same, so its tile is not drawn again', () => {
    const quiet = { _id: 'a', deviceName: 'Room A', latest: null, limits: null, alerts: [] };
    const changing = { _id: 'b', deviceName: 'Room B', latest: null, limits: null, alerts: [] };
    const devices = [quiet, changing] as unknown as BoardDevice[];
    const [first] = triage(devices, 0);
    const next = [quiet, { ...changing, deviceName: 'Room B2' }] as unknown as BoardDevice[];
    const [again, other] = triage(next, 0);
    expect(again).toBe(first);
    expect(other?.device.deviceName).toBe('Room B2');
  });
});

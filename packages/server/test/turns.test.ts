import { describe, expect, it } from 'vitest';
import { Turns } from '../src/lib/turns.ts';

/** A turn that records when it starts and ends, and ends when told. */
function recorder() {
  const log: string[] = [];
  const ends = new Map<string, () => void>();
  const turn = (name: string) => async () => {
    log.push(`${name} starts`);
    await new Promise<void>((resolve) => ends.set(name, resolve));
    log.push(`${name} ends`);
  };
  const end = async (name: string) => {
    ends.get(name)?.();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { log, turn, end };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('Turns', () => {
  it('runs shared turns together, a turn alone after them, and the turns asked for after it once it ends', async () => {
    const turns = new Turns();
    const { log, turn, end } = recorder();
    const all = [
      turns.shared(turn('a')),
      turns.shared(turn('b')),
      turns.alone(turn('x')),
      turns.shared(turn('c')),
      turns.alone(turn('y')),
    ];
    await settle();
    expect(log).toEqual(['a starts', 'b starts']);
    await end('a');
    expect(log.at(-1)).toBe('a ends');
    await end('b');
    expect(log.slice(-2)).toEqual(['b ends', 'x starts']);
    await end('x');
    // c was asked for before y: y waits for it, though both came while x ran.
    expect(log.slice(-2)).toEqual(['x ends', 'c starts']);
    await end('c');
    expect(log.slice(-2)).toEqual(['c ends', 'y starts']);
    await end('y');
    await Promise.all(all);
  });

  it('a turn that fails ends its turn, and the error reaches whoever asked', async () => {
    const turns = new Turns();
    await expect(turns.alone(async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    await expect(turns.shared(async () => 'next')).resolves.toBe('next');
    await expect(turns.alone(async () => 'alone')).resolves.toBe('alone');
  });
});

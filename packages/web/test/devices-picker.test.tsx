import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DevicePicker } from '@/features/devices/components/device-picker.tsx';
import { makeDevice } from './dashboard-fixtures.tsx';

const devices = [
  makeDevice({ _id: 'd1', deviceName: 'Wristband' }),
  makeDevice({ _id: 'd2', deviceName: 'Ring' }),
  makeDevice({ _id: 'd3', deviceName: 'Chest strap' }),
];

function Harness({ initial = 'd1' as string | null }) {
  const [selected, setSelected] = useState(initial);
  return (
    <>
      <DevicePicker devices={devices} selectedId={selected} onSelect={setSelected} />
      <button type="button">outside</button>
      <output data-testid="selected">{selected}</output>
    </>
  );
}

const trigger = () => screen.getByRole('button', { name: /Device/ });

describe('device picker', () => {
  it("shows the selected device's name, or 'Select Device'", () => {
    const { unmount } = render(<Harness />);
    expect(trigger()).toHaveTextContent('Wristband');
    unmount();
    render(<Harness initial={null} />);
    expect(trigger()).toHaveTextContent('Select Device');
  });

  it('chooses with a click, closes, and marks the selected device', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(trigger());
    expect(trigger()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('option', { name: 'Wristband' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('option', { name: 'Ring' })).toHaveAttribute('aria-selected', 'false');
    await user.click(screen.getByRole('option', { name: 'Ring' }));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByTestId('selected')).toHaveTextContent('d2');
    expect(trigger()).toHaveTextContent('Ring');
  });

  it('closes on a click outside', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(trigger());
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'outside' }));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByTestId('selected')).toHaveTextContent('d1');
  });

  it('works with the keyboard: arrows, Enter, Escape', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    trigger().focus();
    await user.keyboard('{ArrowDown}');
    const list = screen.getByRole('listbox');
    expect(list).toHaveFocus();
    expect(list).toHaveAttribute(
      'aria-activedescendant',
      screen.getByRole('option', { name: 'Wristband' }).id,
    );
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(list).toHaveAttribute(
      'aria-activedescendant',
      screen.getByRole('option', { name: 'Chest strap' }).id,
    );
    await user.keyboard('{ArrowDown}{Home}{ArrowDown}{Enter}');
    expect(screen.getByTestId('selected')).toHaveTextContent('d2');
    expect(trigger()).toHaveFocus();
    await user.keyboard(' ');
    await user.keyboard('{End}{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByTestId('selected')).toHaveTextContent('d2');
    expect(trigger()).toHaveFocus();
  });
});

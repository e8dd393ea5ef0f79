import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DateRangePicker } from '@/features/alerts/components/date-range-picker.tsx';
import { EMPTY_RANGE } from '@/features/alerts/utils/date-range.ts';

const dayButton = (ddmmyyyy: string) => screen.getByRole('button', { name: new RegExp(`${ddmmyyyy}$`) });

async function openPicker(onApply = vi.fn(), applied = EMPTY_RANGE) {
  const user = userEvent.setup();
  render(<DateRangePicker applied={applied} onApply={onApply} />);
  await user.click(screen.getByRole('button', { name: /Date range/ }));
  return { user, onApply };
}

describe('date-range picker', () => {
  it('shows a 42-day calendar with empty From and To', async () => {
    await openPicker();
    expect(screen.getByRole('dialog', { name: 'Choose a date range' })).toBeInTheDocument();
    expect(screen.getAllByTestId('calendar-day')).toHaveLength(42);
    expect(screen.getByTestId('range-from')).toHaveTextContent('dd/mm/yyyy');
    expect(screen.getByTestId('range-to')).toHaveTextContent('dd/mm/yyyy');
    expect(screen.getByRole('button', { name: 'Apply Dates' })).toBeDisabled();
  });

  it('names each day by its visible number first, then weekday and dd/mm/yyyy', async () => {
    await openPicker(vi.fn(), { from: new Date(2026, 4, 1), to: new Date(2026, 4, 3) });
    expect(dayButton('20/05/2026')).toHaveTextContent(/^20/);
    expect(dayButton('20/05/2026')).toHaveAccessibleName('20, Wednesday 20/05/2026');
  });

  it('applies only with both dates, swapping a To picked before From', async () => {
    const { user, onApply } = await openPicker(vi.fn(), {
      from: new Date(2026, 4, 1),
      to: new Date(2026, 4, 31),
    });
    // Opening shows the applied month; start a new range.
    await user.click(dayButton('20/05/2026'));
    expect(screen.getByTestId('range-from')).toHaveTextContent('20/05/2026');
    expect(screen.getByTestId('range-to')).toHaveTextContent('dd/mm/yyyy');
    expect(screen.getByRole('button', { name: 'Apply Dates' })).toBeDisabled();
    await user.click(dayButton('12/05/2026'));
    expect(screen.getByTestId('range-from')).toHaveTextContent('12/05/2026');
    expect(screen.getByTestId('range-to')).toHaveTextContent('20/05/2026');
    await user.click(screen.getByRole('button', { name: 'Apply Dates' }));
    expect(onApply).toHaveBeenCalledWith({ from: new Date(2026, 4, 12), to: new Date(2026, 4, 20) });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Clear empties the range and the filter; Close closes without applying', async () => {
    const { user, onApply } = await openPicker(vi.fn(), {
      from: new Date(2026, 4, 1),
      to: new Date(2026, 4, 3),
    });
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onApply).toHaveBeenCalledWith(EMPTY_RANGE);
    expect(screen.getByTestId('range-from')).toHaveTextContent('dd/mm/yyyy');
    await user.click(dayButton('07/05/2026'));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onApply).toHaveBeenCalledTimes(1);
  });

  it('moves between months and days with the keyboard', async () => {
    const { user } = await openPicker(vi.fn(), { from: new Date(2026, 0, 30), to: new Date(2026, 0, 31) });
    expect(screen.getByText('January 2026')).toBeInTheDocument();
    const focused = dayButton('30/01/2026');
    expect(focused).toHaveAttribute('tabindex', '0');
    focused.focus();
    await user.keyboard('{ArrowDown}');
    expect(dayButton('06/02/2026')).toHaveFocus();
    expect(screen.getByText('February 2026')).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}{Enter}');
    expect(screen.getByTestId('range-from')).toHaveTextContent('05/02/2026');
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(screen.getByText('January 2026')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Date range/ })).toHaveFocus();
  });
});

import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatVital, MetricCard } from '@/components/metric-card.tsx';
import { METRICS, MetricCards } from '@/components/metric-cards.tsx';
import { ConnectionCard } from '@/features/health/components/connection-card.tsx';
import { makeRecord } from './dashboard-fixtures.tsx';

const metric = (vital: string) => METRICS.find((m) => m.vital === vital)!;
const bar = (vital: string) => screen.getByTestId(`${vital}-bar`);
const status = (vital: string) => screen.getByTestId(`${vital}-status`);

describe('metric cards', () => {
  it('shows the four vitals with their units in the spec order', () => {
    render(
      <MetricCards
        record={makeRecord({ spo2: 98, heartRate: 72, temperature: 97.6, battery: 85 })}
        now={new Date()}
      />,
    );
    const cards = screen.getAllByRole('region');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'SpO2',
      'Heart Rate',
      'Temperature',
      'Battery',
    ]);
    expect(within(cards[0]!).getByText('%')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('BPM')).toBeInTheDocument();
    expect(within(cards[2]!).getByText('°F')).toBeInTheDocument();
    expect(screen.getByTestId('temperature-value')).toHaveTextContent('97.6');
    expect(screen.getAllByText('Normal')).toHaveLength(4);
  });

  it('marks every card stale, never plain Normal, when the newest reading is older than 15 minutes', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    render(
      <MetricCards
        record={makeRecord({ spo2: 98, heartRate: 72, createdAt: '2026-11-23T11:15:00Z' })}
        now={now}
      />,
    );
    expect(screen.queryByText('Normal')).toBeNull();
    for (const vital of ['spo2', 'heartRate', 'temperature', 'battery']) {
      expect(status(vital)).toHaveTextContent('Stale · was Normal');
    }
    expect(screen.getByTestId('stale-notice')).toHaveTextContent('No reading for 45 minutes');
    expect(bar('spo2')).toHaveClass('bg-slate-400');
  });

  it('keeps what a stale low value meant: "Stale · was Abnormal", muted red, with its direction', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    render(
      <MetricCards
        record={makeRecord({ spo2: 94, heartRate: 72, battery: 11, createdAt: '2026-11-23T11:15:00Z' })}
        now={now}
      />,
    );
    expect(status('spo2')).toHaveTextContent('Stale · was Abnormal');
    expect(status('spo2')).toHaveClass('text-red-800');
    expect(bar('spo2')).toHaveClass('bg-red-300');
    expect(screen.getByTestId('spo2-side')).toHaveTextContent('↓ Low');
    expect(status('battery')).toHaveTextContent('Stale · was Low Battery');
    expect(bar('battery')).toHaveClass('bg-red-300');
    expect(status('heartRate')).toHaveTextContent('Stale · was Normal');
    expect(bar('heartRate')).toHaveClass('bg-slate-400');
  });

  it('shows a battery-only reading as 0 with "No reading": never Abnormal, never red', () => {
    render(
      <MetricCards
        record={makeRecord({ spo2: null, heartRate: null, temperature: null, battery: 64 })}
        now={new Date()}
      />,
    );
    for (const vital of ['spo2', 'heartRate', 'temperature']) {
      expect(status(vital)).toHaveTextContent('No reading');
      expect(bar(vital)).toHaveClass('bg-slate-400');
      expect(bar(vital)).toHaveStyle({ width: '0%' });
      expect(screen.queryByTestId(`${vital}-side`)).toBeNull();
    }
    expect(screen.getByTestId('spo2-value')).toHaveTextContent('0');
    expect(screen.getByTestId('heartRate-value')).toHaveTextContent('0');
    expect(screen.getByTestId('temperature-value')).toHaveTextContent('0.0');
    expect(screen.queryByText('Abnormal')).toBeNull();
    expect(document.querySelector('[class*="-red-"]')).toBeNull();
    expect(status('battery')).toHaveTextContent('Normal');
  });

  it('marks the normal range on every bar, with its text', () => {
    render(<MetricCards record={makeRecord({})} now={new Date()} />);
    const band = (vital: string) => screen.getByTestId(`${vital}-normal-band`);
    // SpO2's scale is 90–100 but it is normal from 95: the band covers the upper half.
    expect(band('spo2')).toHaveStyle({ left: '50%', right: '0%' });
    expect(screen.getByTestId('spo2-normal-range')).toHaveTextContent('Normal range: 95–100%');
    expect(band('heartRate')).toHaveStyle({ left: '0%', right: '0%' });
    expect(screen.getByTestId('heartRate-normal-range')).toHaveTextContent('Normal range: 60–100 BPM');
    expect(screen.getByTestId('temperature-normal-range')).toHaveTextContent('Normal range: 95–98.4°F');
    expect(band('battery')).toHaveStyle({ left: '20%', right: '0%' });
    expect(screen.getByTestId('battery-normal-range')).toHaveTextContent('Normal range: 20–100%');
  });

  it('puts the bar on the spec scale with low and high labels (SpO2 90–100)', () => {
    render(<MetricCard metric={metric('spo2')} value={97} />);
    expect(bar('spo2')).toHaveStyle({ width: '70%' });
    expect(screen.getByText('90%')).toBeInTheDocument();
    expect(screen.getByText('100%')).toBeInTheDocument();
    expect(bar('spo2')).toHaveClass('bg-emerald-500');
  });

  it('clamps the bar to 0–100 % and turns it red with Abnormal outside the normal range', () => {
    const { rerender } = render(<MetricCard metric={metric('heartRate')} value={130} />);
    expect(bar('heartRate')).toHaveStyle({ width: '100%' });
    expect(bar('heartRate')).toHaveClass('bg-red-500');
    expect(screen.getByText('Abnormal')).toBeInTheDocument();
    expect(screen.getByText('↑ High')).toBeInTheDocument();
    rerender(<MetricCard metric={metric('heartRate')} value={45} />);
    // Below the scale: a red sliver at the low end, never an empty bar that reads as "no data".
    expect(bar('heartRate')).toHaveStyle({ width: '3%' });
    expect(screen.getByText('Abnormal')).toBeInTheDocument();
    expect(screen.getByText('↓ Low')).toBeInTheDocument();
    rerender(<MetricCard metric={metric('heartRate')} value={100} />);
    expect(screen.getByText('Normal')).toBeInTheDocument();
    expect(screen.queryByText('↑ High')).toBeNull();
  });

  it('shows an SpO2 of 89 % (under its 90–100 scale) as low, with a red bar', () => {
    render(<MetricCard metric={metric('spo2')} value={89} />);
    expect(bar('spo2')).toHaveClass('bg-red-500');
    expect(bar('spo2')).toHaveStyle({ width: '3%' });
    expect(screen.getByText('↓ Low')).toBeInTheDocument();
  });

  it('uses the temperature scale 95–98.4 °F and its inclusive normal range', () => {
    const { rerender } = render(<MetricCard metric={metric('temperature')} value={98.4} />);
    expect(bar('temperature')).toHaveStyle({ width: '100%' });
    expect(screen.getByText('Normal')).toBeInTheDocument();
    expect(screen.getByText('95°F')).toBeInTheDocument();
    expect(screen.getByText('98.4°F')).toBeInTheDocument();
    rerender(<MetricCard metric={metric('temperature')} value={99.1} />);
    expect(screen.getByText('Abnormal')).toBeInTheDocument();
  });

  it('says Low Battery under 20 %', () => {
    const { rerender } = render(<MetricCard metric={metric('battery')} value={19} />);
    expect(screen.getByText('Low Battery')).toBeInTheDocument();
    expect(bar('battery')).toHaveStyle({ width: '19%' });
    rerender(<MetricCard metric={metric('battery')} value={20} />);
    expect(screen.queryByText('Low Battery')).not.toBeInTheDocument();
  });

  it('shows a missing value as 0', () => {
    render(<MetricCard metric={metric('spo2')} value={null} />);
    expect(screen.getByTestId('spo2-value')).toHaveTextContent('0');
    expect(bar('spo2')).toHaveStyle({ width: '0%' });
    expect(formatVital('temperature', null)).toBe('0.0');
    expect(formatVital('spo2', 96.5)).toBe('96.5');
  });
});

describe('device connection card', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  it('is online up to 15 minutes after the last reading', () => {
    render(<ConnectionCard lastUpdate="2026-03-01T11:45:00Z" now={now} />);
    expect(screen.getByText('Device Connected')).toBeInTheDocument();
    expect(screen.getByText('Strong signal, stable connection')).toBeInTheDocument();
    expect(screen.getByText('Device Online')).toBeInTheDocument();
  });

  it('is offline after that', () => {
    render(<ConnectionCard lastUpdate="2026-03-01T11:44:59Z" now={now} />);
    expect(screen.getByText('Device Offline')).toBeInTheDocument();
    expect(screen.getByText('Last update was more than 15 minutes ago')).toBeInTheDocument();
    expect(screen.queryByText('Device Online')).not.toBeInTheDocument();
  });

  it("is offline without any reading: the spec's text, then that none came yet", () => {
    render(<ConnectionCard lastUpdate={null} now={now} />);
    expect(screen.getByText('Device Offline')).toBeInTheDocument();
    expect(screen.getByText('Last update was more than 15 minutes ago')).toBeInTheDocument();
    expect(screen.getByText('No readings received from this device yet')).toBeInTheDocument();
  });
});

describe('temperature unit', () => {
  it('shows °C when the user chose it, judging the range on the stored °F value', () => {
    render(<MetricCards record={makeRecord({ temperature: 103.1 })} now={new Date()} unit="C" />);
    expect(screen.getByTestId('temperature-value')).toHaveTextContent('39.5');
    const card = screen.getByRole('region', { name: 'Temperature' });
    expect(card).toHaveTextContent('°C');
    expect(card).toHaveTextContent('↑ High');
    expect(card).not.toHaveTextContent('°F');
    expect(screen.getByTestId('temperature-normal-range')).toHaveTextContent('Normal range: 35–36.9°C');
  });
});

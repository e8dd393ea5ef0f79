import { BLE_CHARACTERISTICS, BLE_SERVICES, type BleOutcome, bleUuid } from '@vitalwatch/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WearableLink } from '@/features/wearables/lib/wearable-link.ts';

/**
 * The notification path of the Bluetooth gateway (issue 28). Chromium 156's DevTools
 * `BluetoothEmulation` answers reads, writes and subscriptions but has no command that sends a
 * notification, so the end-to-end test streams by reads; here a heart-rate strap written to the
 * Web Bluetooth interfaces the gateway uses sends notifications as a real one does.
 */
class Strap extends EventTarget {
  value?: DataView;
  readonly reads = vi.fn(async (): Promise<DataView> => {
    throw new Error('the strap notifies; the gateway should not read it');
  });
  readonly uuid = bleUuid(BLE_CHARACTERISTICS.heartRateMeasurement);
  constructor(
    readonly properties: { notify: boolean; indicate: boolean; read: boolean },
    private readonly subscribe: () => Promise<void>,
  ) {
    super();
  }
  readValue = () => this.reads();
  async startNotifications() {
    await this.subscribe();
    return this;
  }
  /** One Heart Rate Measurement: flags 0x06 (8-bit value, contact detected), then the rate. */
  notify(bpm: number) {
    this.value = new DataView(new Uint8Array([0x06, bpm]).buffer);
    this.dispatchEvent(new Event('characteristicvaluechanged'));
  }
}

function deviceWith(strap: Strap) {
  const service = {
    uuid: bleUuid(BLE_SERVICES.heartRate),
    getCharacteristic: async (id: number | string) => {
      if (id !== BLE_CHARACTERISTICS.heartRateMeasurement) throw new Error('not offered');
      return strap;
    },
  };
  const device = Object.assign(new EventTarget(), {
    id: 'strap-1',
    gatt: {
      connected: true,
      connect: async () => device.gatt,
      disconnect: () => undefined,
      getPrimaryServices: async () => [service],
    },
  });
  return device as unknown as BluetoothDevice;
}

const heartRates = (outcomes: BleOutcome[]) =>
  outcomes.map((o) => (o.kind === 'values' ? o.values.heartRate : o.kind));

afterEach(() => vi.useRealTimers());

describe('a wearable that notifies', () => {
  it('subscribes and forwards every notification, parsed, without reading', async () => {
    const strap = new Strap({ notify: true, indicate: false, read: true }, async () => undefined);
    const outcomes: BleOutcome[] = [];
    const states: string[] = [];
    const link = new WearableLink(deviceWith(strap), {
      onOutcome: (o) => outcomes.push(o),
      onState: (s) => states.push(s),
      onInfo: () => undefined,
    });
    await link.start();
    expect(states).toEqual(['connecting', 'connected']);
    for (const bpm of [72, 74, 140]) strap.notify(bpm);
    expect(heartRates(outcomes)).toEqual([72, 74, 140]);
    expect(strap.reads).not.toHaveBeenCalled();
    link.stop();
    strap.notify(80);
    expect(heartRates(outcomes)).toEqual([72, 74, 140]);
  });

  it('reads on a timer instead when the wearable refuses the subscription', async () => {
    vi.useFakeTimers();
    const strap = new Strap({ notify: true, indicate: false, read: true }, async () => {
      throw new DOMException('GATT operation failed', 'NotSupportedError');
    });
    let bpm = 60;
    strap.reads.mockImplementation(async () => {
      strap.notify(bpm++);
      return strap.value as DataView;
    });
    const outcomes: BleOutcome[] = [];
    const link = new WearableLink(deviceWith(strap), {
      onOutcome: (o) => outcomes.push(o),
      onState: () => undefined,
      onInfo: () => undefined,
    });
    await link.start();
    await vi.advanceTimersByTimeAsync(2_500);
    link.stop();
    expect(heartRates(outcomes)).toEqual([60, 61, 62]);
  });
});

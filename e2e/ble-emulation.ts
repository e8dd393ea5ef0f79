import type { Browser, CDPSession, Page } from '@playwright/test';

/**
 * Emulated Bluetooth LE wearables through Chromium's DevTools protocol: `BluetoothEmulation` on the
 * browser session (peripherals, services, characteristics, answers to the page's GATT operations)
 * and `DeviceAccess` on the page (the chooser). Chromium 156's domain has no command that sends a
 * notification, so the wearables here offer their measurements to be read, and each read the
 * gateway makes is answered with the next packet: a read fires the same `characteristicvaluechanged`
 * event as a notification, so the gateway's parsing, queueing and sending are the same.
 */

export const uuid16 = (short: number) =>
  `0000${short.toString(16).padStart(4, '0')}-0000-1000-8000-00805f9b34fb`;

export interface EmulatedCharacteristic {
  id: string;
  /** A measurement (polled every second), where a link drop is staged. */
  measurement: boolean;
  /** The next packet to answer a read with; undefined leaves the read waiting. */
  next(): number[] | undefined;
}

export interface PeripheralSpec {
  address: string;
  name: string;
  services: {
    uuid: number;
    characteristics: { uuid: number; measurement?: boolean; next: () => number[] | undefined }[];
  }[];
}

/** The Pulse Oximeter service (0x1822) with a PLX Continuous Measurement (0x2A5F) that answers reads with `next()`. */
export const pulseOximeterService = (
  next: () => number[] | undefined,
): PeripheralSpec['services'][number] => ({
  uuid: 0x1822,
  characteristics: [{ uuid: 0x2a5f, measurement: true, next }],
});

export class BleEmulation {
  private readonly cdp: CDPSession;
  private readonly characteristics = new Map<string, EmulatedCharacteristic>();
  /** Addresses whose link drops right after their next measurement read is answered. */
  private readonly dropOnNextRead = new Map<string, () => void>();
  private readonly peripherals = new Map<string, PeripheralSpec>();
  /** Peripherals whose connection attempts time out (out of reach). */
  readonly unreachable = new Set<string>();

  private constructor(cdp: CDPSession) {
    this.cdp = cdp;
  }

  /** Enables the browser's emulated adapter (once per browser: run one such test per file). */
  static async start(browser: Browser): Promise<BleEmulation> {
    const cdp = await browser.newBrowserCDPSession();
    const emulation = new BleEmulation(cdp);
    await cdp.send('BluetoothEmulation.enable', { state: 'powered-on', leSupported: true });
    // Connections and service discovery succeed (HCI / GATT success, 0).
    cdp.on('BluetoothEmulation.gattOperationReceived', (event) => {
      // 0 is HCI / GATT success; 0x08, HCI Connection Timeout, for a peripheral out of reach.
      const code = event.type === 'connection' && emulation.unreachable.has(event.address) ? 0x08 : 0;
      void cdp
        .send('BluetoothEmulation.simulateGATTOperationResponse', {
          address: event.address,
          type: event.type,
          code,
        })
        .catch(() => undefined);
    });
    cdp.on('BluetoothEmulation.characteristicOperationReceived', (event) => void emulation.answer(event));
    return emulation;
  }

  private async answer(event: { characteristicId: string; type: string }): Promise<void> {
    const chr = this.characteristics.get(event.characteristicId);
    if (!chr) return;
    if (event.type !== 'read') {
      await this.cdp
        .send('BluetoothEmulation.simulateCharacteristicOperationResponse', {
          characteristicId: event.characteristicId,
          type: event.type as 'subscribe-to-notifications',
          code: 0,
        })
        .catch(() => undefined);
      return;
    }
    const packet = chr.next();
    if (!packet) return;
    await this.cdp.send('BluetoothEmulation.simulateCharacteristicOperationResponse', {
      characteristicId: event.characteristicId,
      type: 'read',
      code: 0,
      data: Buffer.from(packet).toString('base64'),
    });
    const address = event.characteristicId.split('_')[0] ?? '';
    const drop = this.dropOnNextRead.get(address);
    if (drop && chr.measurement) {
      this.dropOnNextRead.delete(address);
      await this.cdp.send('BluetoothEmulation.simulateGATTDisconnection', { address });
      // A disconnection forgets the peripheral's services, as a real link does: the gateway
      // discovers them again when it reconnects.
      const spec = this.peripherals.get(address);
      if (spec) await this.addServices(spec);
      drop();
    }
  }

  async addPeripheral(spec: PeripheralSpec): Promise<void> {
    await this.cdp.send('BluetoothEmulation.simulatePreconnectedPeripheral', {
      address: spec.address,
      name: spec.name,
      manufacturerData: [],
      knownServiceUuids: spec.services.map((s) => uuid16(s.uuid)),
    });
    this.peripherals.set(spec.address, spec);
    await this.addServices(spec);
  }

  private async addServices(spec: PeripheralSpec): Promise<void> {
    for (const service of spec.services) {
      const { serviceId } = await this.cdp.send('BluetoothEmulation.addService', {
        address: spec.address,
        serviceUuid: uuid16(service.uuid),
      });
      for (const c of service.characteristics) {
        const { characteristicId } = await this.cdp.send('BluetoothEmulation.addCharacteristic', {
          serviceId,
          characteristicUuid: uuid16(c.uuid),
          properties: { read: true },
        });
        this.characteristics.set(characteristicId, {
          id: characteristicId,
          measurement: c.measurement ?? false,
          next: c.next,
        });
      }
    }
  }

  /** Drops the link of `address` right after answering its next measurement read; resolves once it has. */
  dropLinkAtNextRead(address: string): Promise<void> {
    return new Promise((resolve) => this.dropOnNextRead.set(address, resolve));
  }
}

/** Answers the page's Bluetooth chooser with the peripheral `choose()` names at that moment. */
export async function answerChooser(page: Page, choose: () => string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DeviceAccess.enable');
  const answered = new Set<string>();
  cdp.on('DeviceAccess.deviceRequestPrompted', (event) => {
    const wanted = event.devices.find((d) => d.id === choose());
    if (!wanted || answered.has(event.id)) return;
    answered.add(event.id);
    void cdp.send('DeviceAccess.selectPrompt', { id: event.id, deviceId: wanted.id });
  });
}

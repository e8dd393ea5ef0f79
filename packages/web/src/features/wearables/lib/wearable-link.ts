import {
  BLE_CHARACTERISTICS,
  BLE_SERVICES,
  type BleOutcome,
  bleReadingValues,
  bleString,
  bleUuid,
} from '@vitalwatch/shared';

/** The chooser shows only wearables that offer one of these (Battery and Device Information are read when present). */
export const CHOOSER_OPTIONS = {
  filters: [
    { services: [BLE_SERVICES.heartRate] },
    { services: [BLE_SERVICES.pulseOximeter] },
    { services: [BLE_SERVICES.healthThermometer] },
  ],
  optionalServices: [BLE_SERVICES.battery, BLE_SERVICES.deviceInformation],
};

/** The measurement characteristics of each service, and how often one that cannot notify is read. */
const MEASUREMENTS: { service: number; characteristic: number; pollMs: number }[] = [
  { service: BLE_SERVICES.heartRate, characteristic: BLE_CHARACTERISTICS.heartRateMeasurement, pollMs: 1000 },
  { service: BLE_SERVICES.pulseOximeter, characteristic: BLE_CHARACTERISTICS.plxContinuous, pollMs: 1000 },
  { service: BLE_SERVICES.pulseOximeter, characteristic: BLE_CHARACTERISTICS.plxSpotCheck, pollMs: 1000 },
  {
    service: BLE_SERVICES.healthThermometer,
    characteristic: BLE_CHARACTERISTICS.temperatureMeasurement,
    pollMs: 5000,
  },
  { service: BLE_SERVICES.battery, characteristic: BLE_CHARACTERISTICS.batteryLevel, pollMs: 60_000 },
];

const FIRST_RECONNECT_MS = 1000;
const MAX_RECONNECT_MS = 30_000;

export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'stopped';

export interface LinkEvents {
  onOutcome(outcome: BleOutcome): void;
  /** `retryInMs` and `lastError` while reconnecting: when the next try is, and why the last failed. */
  onState(state: LinkState, retry?: { inMs: number; lastError?: string }): void;
  onInfo(info: { make?: string; model?: string }): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One paired wearable. Subscribes to each measurement characteristic it has; one that cannot
 * notify (or refuses to) but can be read is read on a timer instead (a read fires the same
 * `characteristicvaluechanged` event). When the link drops it reconnects by itself, waiting 1 s,
 * then twice as long each time up to 30 s, until it is back or stopped.
 */
export class WearableLink {
  readonly device: BluetoothDevice;
  private readonly events: LinkEvents;
  private stopped = false;
  /** Moves on every connection, so the read timers of a dropped one end. */
  private generation = 0;
  private readonly onDisconnected = () => void this.reconnect();

  constructor(device: BluetoothDevice, events: LinkEvents) {
    this.device = device;
    this.events = events;
    device.addEventListener('gattserverdisconnected', this.onDisconnected);
  }

  async start(): Promise<void> {
    this.events.onState('connecting');
    await this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.generation++;
    this.device.removeEventListener('gattserverdisconnected', this.onDisconnected);
    this.device.gatt?.disconnect();
    this.events.onState('stopped');
  }

  private async connect(): Promise<void> {
    const gatt = this.device.gatt;
    if (!gatt) throw new Error('This wearable offers no GATT server');
    await gatt.connect();
    const generation = ++this.generation;
    const services = await gatt.getPrimaryServices();
    const offered = new Set(services.map((s) => s.uuid));
    for (const { service, characteristic, pollMs } of MEASUREMENTS) {
      const found = services.find((s) => s.uuid === bleUuid(service));
      if (!found) continue;
      const chr = await found.getCharacteristic(characteristic).catch(() => null);
      if (chr) await this.listen(chr, characteristic, pollMs, generation);
    }
    if (offered.has(bleUuid(BLE_SERVICES.deviceInformation))) await this.readInfo(services);
    this.events.onState('connected');
  }

  private async listen(
    chr: BluetoothRemoteGATTCharacteristic,
    id: number,
    pollMs: number,
    generation: number,
  ) {
    chr.addEventListener('characteristicvaluechanged', () => {
      if (chr.value && generation === this.generation) this.events.onOutcome(bleReadingValues(id, chr.value));
    });
    const notifying =
      (chr.properties.notify || chr.properties.indicate) &&
      (await chr.startNotifications().then(
        () => true,
        () => false,
      ));
    if (!notifying && chr.properties.read) void this.poll(chr, pollMs, generation);
  }

  private async poll(chr: BluetoothRemoteGATTCharacteristic, pollMs: number, generation: number) {
    while (!this.stopped && generation === this.generation) {
      // The value arrives through 'characteristicvaluechanged'; a failed read is the link dropping.
      await chr.readValue().catch(() => undefined);
      await sleep(pollMs);
    }
  }

  private async readInfo(services: BluetoothRemoteGATTService[]): Promise<void> {
    const info = services.find((s) => s.uuid === bleUuid(BLE_SERVICES.deviceInformation));
    const read = async (id: number) => {
      const chr = await info?.getCharacteristic(id).catch(() => null);
      const value = await chr?.readValue().catch(() => undefined);
      return value ? bleString(value) : undefined;
    };
    const make = await read(BLE_CHARACTERISTICS.manufacturerName);
    const model = await read(BLE_CHARACTERISTICS.modelNumber);
    if (make || model) this.events.onInfo({ ...(make ? { make } : {}), ...(model ? { model } : {}) });
  }

  private async reconnect(): Promise<void> {
    this.generation++;
    let waitMs = FIRST_RECONNECT_MS;
    let lastError: string | undefined;
    while (!this.stopped) {
      this.events.onState('reconnecting', { inMs: waitMs, ...(lastError ? { lastError } : {}) });
      await sleep(waitMs);
      if (this.stopped) return;
      try {
        await this.connect();
        return;
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
        waitMs = Math.min(waitMs * 2, MAX_RECONNECT_MS);
      }
    }
  }
}

/** The parts of Web Bluetooth the gateway uses (TypeScript's DOM library does not describe it). */
interface BluetoothCharacteristicProperties {
  readonly notify: boolean;
  readonly indicate: boolean;
  readonly read: boolean;
}
interface BluetoothRemoteGATTCharacteristic extends EventTarget {
  readonly uuid: string;
  readonly properties: BluetoothCharacteristicProperties;
  readonly value?: DataView;
  readValue(): Promise<DataView>;
  startNotifications(): Promise<BluetoothRemoteGATTCharacteristic>;
}
interface BluetoothRemoteGATTService {
  readonly uuid: string;
  getCharacteristic(uuid: number | string): Promise<BluetoothRemoteGATTCharacteristic>;
}
interface BluetoothRemoteGATTServer {
  readonly connected: boolean;
  connect(): Promise<BluetoothRemoteGATTServer>;
  disconnect(): void;
  getPrimaryServices(): Promise<BluetoothRemoteGATTService[]>;
}
interface BluetoothDevice extends EventTarget {
  readonly id: string;
  readonly name?: string;
  readonly gatt?: BluetoothRemoteGATTServer;
}
interface RequestDeviceOptions {
  filters: { services: (number | string)[] }[];
  optionalServices?: (number | string)[];
}
interface Bluetooth {
  requestDevice(options: RequestDeviceOptions): Promise<BluetoothDevice>;
  getAvailability?(): Promise<boolean>;
}
interface Navigator {
  readonly bluetooth?: Bluetooth;
}

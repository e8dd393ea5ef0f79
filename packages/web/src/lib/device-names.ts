import { createContext, useContext } from 'react';

/** What names a device on screen: its id, and the name the server gave with it (the shared one). */
export interface NamedDevice {
  device: string;
  deviceName: string;
}

/** The name this user sees for a device: their own nickname where they gave one, else the name given. */
export type DeviceNameOf = (named: NamedDevice) => string;

const sharedName: DeviceNameOf = (named) => named.deviceName;

/**
 * Each user's own names for their devices (a nickname is theirs alone), provided where the
 * user's device list is loaded (the user area); elsewhere the name the server gave.
 */
export const DeviceNamesContext = createContext<DeviceNameOf>(sharedName);

export const useDeviceNameOf = (): DeviceNameOf => useContext(DeviceNamesContext);

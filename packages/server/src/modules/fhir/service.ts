import type { TemperatureUnit } from '@vitalwatch/shared';
import { visibleDevice } from '../../access/devices.ts';
import type { Db } from '../../db/index.ts';
import type { UserService } from '../user/service.ts';
import { exportBody } from './export-body.ts';
import type { ObservationKey } from './observation-id.ts';
import {
  findObservation,
  type ObservationPeriod,
  observationPage,
  observationPages,
  type VitalRow,
} from './repository.ts';
import { deviceResource, type FhirResource, observationOf, wearerResource } from './resources.ts';

/** Observations per query of a Bundle written as it is read. */
const BUNDLE_PAGE_ROWS = 5_000;

export interface FhirDevice {
  device: { id: string; deviceName: string; isValid: boolean };
  /** The caller's temperature unit (Observations are written in it). */
  unit: TemperatureUnit;
}

/** FHIR reads: the devices a caller may see, and the Observations of their stored readings. */
export class FhirService {
  private readonly db: Db;
  private readonly users: Pick<UserService, 'temperatureUnitOf'>;

  constructor(db: Db, users: Pick<UserService, 'temperatureUnitOf'>) {
    this.db = db;
    this.users = users;
  }

  /** The device if the caller may see it, with the caller's temperature unit; undefined otherwise. */
  async visibleDevice(userId: string, deviceId: string): Promise<FhirDevice | undefined> {
    const device = await visibleDevice(this.db, userId, deviceId);
    return device && { device, unit: await this.users.temperatureUnitOf(userId) };
  }

  /** The Observation the key names, if its reading is stored and carries that vital. */
  observation(key: ObservationKey): Promise<VitalRow | undefined> {
    return findObservation(this.db, key);
  }

  /** Up to `limit` Observations of the period after the one `after` names (null: from the start). */
  observationPage(p: ObservationPeriod, after: ObservationKey | null, limit: number): Promise<VitalRow[]> {
    return observationPage(this.db, p, after, limit);
  }

  /** Every Observation of the period, a page at a time, in order. */
  observationPages(p: ObservationPeriod, pageRows: number): AsyncGenerator<VitalRow[]> {
    return observationPages(this.db, p, pageRows);
  }

  /**
   * A collection Bundle (as `$export` writes it, fullUrls under `root`) of the device, its wearer
   * and the Observations of [from, to], text piece by piece as the pages are read.
   */
  deviceBundle(
    device: { id: string; deviceName: string; isValid: boolean },
    unit: TemperatureUnit,
    root: string,
    period: { from: Date; to: Date },
  ): AsyncGenerator<string> {
    const micros = (d: Date) => BigInt(d.getTime()) * 1000n;
    const range = { from: micros(period.from), to: micros(period.to) };
    const pages = this.observationPages({ deviceId: device.id, ...range, ranges: [range] }, BUNDLE_PAGE_ROWS);
    async function* resources(): AsyncGenerator<FhirResource[]> {
      yield [
        deviceResource({ id: device.id, name: device.deviceName, isValid: device.isValid }),
        wearerResource(device.id),
      ];
      for await (const rows of pages) yield rows.map((row) => observationOf(row, unit));
    }
    return exportBody('bundle', root, resources());
  }
}

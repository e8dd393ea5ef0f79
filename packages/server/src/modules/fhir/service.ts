import type { TemperatureUnit } from '@vitalwatch/shared';
import { visibleDevice } from '../../access/devices.ts';
import type { Db } from '../../db/index.ts';
import type { UserService } from '../user/service.ts';
import type { ObservationKey } from './observation-id.ts';
import {
  findObservation,
  type ObservationPeriod,
  observationPage,
  observationPages,
  type VitalRow,
} from './repository.ts';

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
}

import type { TemperatureUnit } from '@vitalwatch/shared';
import { observationId, type VitalSuffix } from './observation-id.ts';
import type { VitalRow } from './repository.ts';

/**
 * FHIR R4 resources of VitalWatch data, plain JSON. Readings become vital-signs Observations
 * after the FHIR vital signs profiles (oxygensat, heartrate, bodytemp): LOINC codes, UCUM units,
 * category vital-signs. VitalWatch keeps no patient record, so the subject is the device's
 * wearer: a Patient with no demographics, identified by the device.
 */
export type FhirResource = { resourceType: string; id?: string } & Record<string, unknown>;

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const VITAL_SIGNS = {
  coding: [
    {
      system: 'http://terminology.hl7.org/CodeSystem/observation-category',
      code: 'vital-signs',
      display: 'Vital Signs',
    },
  ],
  text: 'Vital Signs',
};

/** The identifier systems of VitalWatch's devices and their wearers. */
export const DEVICE_SYSTEM = 'urn:vitalwatch:device';

interface VitalCode {
  profile: 'oxygensat' | 'heartrate' | 'bodytemp';
  codings: { code: string; display: string }[];
  text: string;
}

const VITALS: Record<VitalSuffix, VitalCode> = {
  spo2: {
    profile: 'oxygensat',
    // The oxygensat profile: 2708-6, with 59408-5 (by pulse oximetry), which is how it is measured.
    codings: [
      { code: '2708-6', display: 'Oxygen saturation in Arterial blood' },
      { code: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry' },
    ],
    text: 'Oxygen saturation (SpO2)',
  },
  hr: { profile: 'heartrate', codings: [{ code: '8867-4', display: 'Heart rate' }], text: 'Heart rate' },
  temp: {
    profile: 'bodytemp',
    codings: [{ code: '8310-5', display: 'Body temperature' }],
    text: 'Body temperature',
  },
};

const quantity = (vital: VitalSuffix, stored: number, unit: TemperatureUnit) => {
  if (vital === 'spo2') return { value: stored, unit: '%', system: UCUM, code: '%' };
  if (vital === 'hr') return { value: stored, unit: 'beats/minute', system: UCUM, code: '/min' };
  return unit === 'C'
    ? { value: Math.round((((stored - 32) * 5) / 9) * 100) / 100, unit: 'C', system: UCUM, code: 'Cel' }
    : { value: stored, unit: 'F', system: UCUM, code: '[degF]' };
};

/** The wearer's Patient id: the device's. */
export const wearerId = (deviceId: string) => `wearer-${deviceId}`;

/** The Observation of one vital of a stored reading (battery is not a vital sign). */
export function observationOf(row: VitalRow, unit: TemperatureUnit): FhirResource {
  const vital = VITALS[row.key.vital];
  return {
    resourceType: 'Observation',
    id: observationId(row.key),
    meta: { profile: [`http://hl7.org/fhir/StructureDefinition/${vital.profile}`] },
    status: 'final',
    category: [VITAL_SIGNS],
    code: { coding: vital.codings.map((c) => ({ system: LOINC, ...c })), text: vital.text },
    subject: { reference: `Patient/${wearerId(row.key.deviceId)}` },
    effectiveDateTime: row.effective,
    valueQuantity: quantity(row.key.vital, row.value, unit),
    device: { reference: `Device/${row.key.deviceId}` },
  };
}

export function deviceResource(device: { id: string; name: string; isValid: boolean }): FhirResource {
  return {
    resourceType: 'Device',
    id: device.id,
    identifier: [{ system: DEVICE_SYSTEM, value: device.id }],
    status: device.isValid ? 'active' : 'inactive',
    deviceName: [{ name: device.name, type: 'user-friendly-name' }],
    type: { text: 'Wearable vital signs monitor' },
    patient: { reference: `Patient/${wearerId(device.id)}` },
  };
}

/** Whoever wears the device: VitalWatch records no name, birth date or other demographics. */
export function wearerResource(deviceId: string): FhirResource {
  return {
    resourceType: 'Patient',
    id: wearerId(deviceId),
    identifier: [{ system: `${DEVICE_SYSTEM}:wearer`, value: deviceId }],
    active: true,
  };
}

/** FHIR's error: an OperationOutcome with one issue. */
export function operationOutcome(code: string, diagnostics: string, expression?: string): FhirResource {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code, diagnostics, ...(expression ? { expression: [expression] } : {}) }],
  };
}

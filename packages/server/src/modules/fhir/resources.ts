import type { TemperatureUnit } from '@vitalwatch/shared';
import type { StoredReading } from '../export/service.ts';

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
  /** The column of the stored reading. */
  column: 'spo2' | 'heart_rate' | 'temperature';
  /** Suffix of the Observation id (`<reading id>-<suffix>`). */
  suffix: string;
  codings: { code: string; display: string }[];
  text: string;
}

const VITALS: readonly VitalCode[] = [
  {
    column: 'spo2',
    suffix: 'spo2',
    // The oxygensat profile: 2708-6, with 59408-5 (by pulse oximetry), which is how it is measured.
    codings: [
      { code: '2708-6', display: 'Oxygen saturation in Arterial blood' },
      { code: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry' },
    ],
    text: 'Oxygen saturation (SpO2)',
  },
  {
    column: 'heart_rate',
    suffix: 'hr',
    codings: [{ code: '8867-4', display: 'Heart rate' }],
    text: 'Heart rate',
  },
  {
    column: 'temperature',
    suffix: 'temp',
    codings: [{ code: '8310-5', display: 'Body temperature' }],
    text: 'Body temperature',
  },
];

const quantity = (column: VitalCode['column'], stored: number, unit: TemperatureUnit) => {
  if (column === 'spo2') return { value: stored, unit: '%', system: UCUM, code: '%' };
  if (column === 'heart_rate') return { value: stored, unit: 'beats/minute', system: UCUM, code: '/min' };
  return unit === 'C'
    ? { value: Math.round((((stored - 32) * 5) / 9) * 100) / 100, unit: 'C', system: UCUM, code: 'Cel' }
    : { value: stored, unit: 'F', system: UCUM, code: '[degF]' };
};

export const wearerId = (deviceId: string) => `wearer-${deviceId}`;

/** The Observations of one reading: one per vital it carries (battery is not a vital sign). */
export function observationsOf(
  reading: StoredReading,
  deviceId: string,
  unit: TemperatureUnit,
): FhirResource[] {
  return VITALS.flatMap((vital) => {
    const raw = reading[vital.column];
    if (raw === null) return [];
    return [
      {
        resourceType: 'Observation',
        id: `${reading.id}-${vital.suffix}`,
        meta: { profile: [`http://hl7.org/fhir/StructureDefinition/${PROFILE[vital.column]}`] },
        status: 'final',
        category: [VITAL_SIGNS],
        code: { coding: vital.codings.map((c) => ({ system: LOINC, ...c })), text: vital.text },
        subject: { reference: `Patient/${wearerId(deviceId)}` },
        effectiveDateTime: reading.at,
        valueQuantity: quantity(vital.column, Number(raw), unit),
        device: { reference: `Device/${deviceId}` },
      },
    ];
  });
}

const PROFILE = { spo2: 'oxygensat', heart_rate: 'heartrate', temperature: 'bodytemp' } as const;

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

/** `GET /fhir/R4/metadata`: what this server answers. */
export function capabilityStatement(): FhirResource {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: '2026-11-24',
    kind: 'instance',
    software: { name: 'VitalWatch' },
    implementation: { description: 'VitalWatch vital signs, read only' },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json'],
    rest: [
      {
        mode: 'server',
        security: { description: 'Authorization: Bearer <VitalWatch access token>' },
        resource: [
          {
            type: 'Observation',
            interaction: [{ code: 'search-type' }],
            searchParam: [
              { name: 'device', type: 'reference' },
              { name: 'date', type: 'date' },
              { name: '_count', type: 'number' },
            ],
          },
          { type: 'Device', interaction: [{ code: 'read' }], operation: [exportOperation] },
        ],
      },
    ],
  };
}

const exportOperation = {
  name: 'export',
  definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export',
  documentation: 'The device, its wearer and every Observation of a period (at most 90 days), one Bundle',
};

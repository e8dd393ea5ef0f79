import type { Readable } from 'node:stream';
import {
  ALERTS_CSV_HEADER,
  EXPORT_MAX_RANGE_DAYS,
  readingsCsvHeader,
  rollupCsvHeader,
  type TemperatureUnit,
} from '@vitalwatch/shared';
import type { Db } from '../../db/index.ts';
import { csvLine, type ExportService } from '../export/service.ts';
import type { FhirService } from '../fhir/service.ts';
import type { UserService } from '../user/service.ts';
import * as repo from './repository.ts';
import { type ZipEntry, zipStream } from './zip.ts';

export interface DataExportDeps {
  db: Db;
  users: UserService;
  exports: ExportService;
  fhir: FhirService;
}

/** What README.txt of the download says: the formats of its files. */
export const DATA_README = `VitalWatch: everything about you, as of the date in profile.json

profile.json        Your account (as Profile shows it), without any password or secret.
devices.json        Devices you are in the care circle of: your role (owner, carer, viewer),
                    how you get alerts (primary, backup), your nickname, since when.
care-circles.json   Everyone in those circles: name, role, how they get alerts, since when.
audit-events.ndjson The audit log entries you did or that were about your account, one JSON
                    object a line: at, action, outcome, actorId, actorName, targetType,
                    targetId, ip, detail.
devices/<id>/readings-raw.csv     Every reading of the last ${EXPORT_MAX_RANGE_DAYS} days (columns as the readings export).
devices/<id>/readings-hourly.csv  Older readings as hourly rollups (min, avg, max, count per vital).
devices/<id>/alerts.csv           Every alert of the device (columns as the alerts export).
devices/<id>/alert-timelines.csv  Each alert's notifications, receipts and escalations.
devices/<id>/fhir-bundle.json     A FHIR R4 collection Bundle: the Device, its wearer (Patient)
                                  and an Observation per vital of the last ${EXPORT_MAX_RANGE_DAYS} days.
Every device you may see (your own and your care teams') has a folder. Times are ISO 8601 in UTC;
CSV files follow RFC 4180 with a header row; temperatures are in your unit.
`;

const TIMELINE_HEADER = ['alert_id', 'at', 'kind', 'by', 'channel', 'ok', 'detail'];

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const once = (text: string) =>
  async function* () {
    yield text;
  };

async function* csv(header: readonly string[], lines: AsyncIterable<(string | null | undefined)[][]>) {
  yield csvLine(header);
  for await (const page of lines) yield page.map(csvLine).join('');
}

/**
 * The user's data as one ZIP, written as it is read (`zipStream`): memory holds one page of one
 * file. Readings are bounded like the exports: raw for the last EXPORT_MAX_RANGE_DAYS days, hourly
 * rollups before; the FHIR Bundle covers the raw period.
 */
export async function dataExport(deps: DataExportDeps, userId: string, fhirRoot: string): Promise<Readable> {
  const profile = await deps.users.profile(userId);
  const unit: TemperatureUnit = profile.temperatureUnit;
  const [memberships, visible] = await Promise.all([
    repo.memberships(deps.db, userId),
    repo.visibleDevices(deps.db, userId),
  ]);
  const circles = await repo.circleMembers(
    deps.db,
    memberships.map((m) => m.deviceId),
  );
  const now = new Date();
  const rawFrom = new Date(now.getTime() - EXPORT_MAX_RANGE_DAYS * 86_400_000);

  async function* entries(): AsyncGenerator<ZipEntry> {
    yield { name: 'README.txt', content: once(DATA_README) };
    yield { name: 'profile.json', content: once(json({ ...profile, exportedAt: now.toISOString() })) };
    yield { name: 'devices.json', content: once(json(memberships)) };
    yield {
      name: 'care-circles.json',
      content: once(
        json(
          memberships.map((m) => ({
            deviceId: m.deviceId,
            deviceName: m.deviceName,
            members: circles
              .filter((c) => c.device_id === m.deviceId)
              .map((c) => ({
                name: c.full_name,
                role: c.circle_role,
                alerts: c.contact_role,
                since: c.since,
              })),
          })),
        ),
      ),
    };
    yield {
      name: 'audit-events.ndjson',
      content: async function* () {
        for await (const page of repo.auditPages(deps.db, userId))
          yield page
            .map((e) =>
              JSON.stringify({
                at: e.at.toISOString(),
                action: e.action,
                outcome: e.outcome,
                actorId: e.actor_id,
                actorName: e.actor_name,
                targetType: e.target_type,
                targetId: e.target_id,
                ip: e.ip,
                detail: e.detail,
              }),
            )
            .map((line) => `${line}\n`)
            .join('');
      },
    };
    for (const device of visible) {
      const dir = `devices/${device.id}`;
      const period = { deviceId: device.id };
      yield {
        name: `${dir}/readings-raw.csv`,
        content: () =>
          csv(
            readingsCsvHeader(unit),
            deps.exports.readingLines({ ...period, from: rawFrom, to: now, resolution: 'raw', unit }),
          ),
      };
      yield {
        name: `${dir}/readings-hourly.csv`,
        content: () =>
          csv(
            rollupCsvHeader(unit),
            deps.exports.readingLines({
              ...period,
              from: new Date(0),
              to: rawFrom,
              resolution: 'hour',
              unit,
            }),
          ),
      };
      yield {
        name: `${dir}/alerts.csv`,
        content: () =>
          csv(ALERTS_CSV_HEADER, deps.exports.alertLines({ ...period, from: new Date(0), to: now })),
      };
      yield {
        name: `${dir}/alert-timelines.csv`,
        content: () =>
          csv(
            TIMELINE_HEADER,
            (async function* () {
              for await (const page of repo.alertEventPages(deps.db, device.id))
                yield page.map((e) => [
                  e.alert_id,
                  e.at.toISOString(),
                  e.kind,
                  e.user_name,
                  e.channel,
                  e.ok === null ? null : String(e.ok),
                  e.detail,
                ]);
            })(),
          ),
      };
      yield {
        name: `${dir}/fhir-bundle.json`,
        content: () => deps.fhir.deviceBundle(device, unit, fhirRoot, { from: rawFrom, to: now }),
      };
    }
  }
  return zipStream(entries());
}

import { type ExportResolution, HEALTH_MESSAGES, type TemperatureUnit } from '@vitalwatch/shared';
import { visibleDevice } from '../../access/devices.ts';
import type { Db } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import type { UserService } from '../user/service.ts';
import { alertLines, type Period, readingLines } from './queries.ts';
import { reportData } from './report-data.ts';
import type { ReportHeader } from './report-pdf.ts';

// What other modules use of CSV writing: only through this file.
export { csvLine } from './csv.ts';

/**
 * The PDF renderer (pdfkit, fontkit and the report's fonts, about 0.3 s of CPU to load) is loaded by the first
 * report asked for, not at start-up.
 */
const loadReportPdf = () => import('./report-pdf.ts');

/**
 * Exports keep no state of their own: CSV lines streamed a keyset page at a time, and PDF reports.
 * For a signed-in caller, `deviceFor` answers 404 unless they may see the device (as the health
 * routes); a share link's live state is its access (ShareService).
 */
export class ExportService {
  private readonly db: Db;
  private readonly users: Pick<UserService, 'temperatureUnitOf'>;

  constructor(db: Db, users: Pick<UserService, 'temperatureUnitOf'>) {
    this.db = db;
    this.users = users;
  }

  /** The device the caller may see, with the temperature unit they chose (Profile → Units); else 404. */
  async deviceFor(userId: string, deviceId: string): Promise<{ deviceName: string; unit: TemperatureUnit }> {
    const device = await visibleDevice(this.db, userId, deviceId);
    if (!device) throw notFound(HEALTH_MESSAGES.notFound);
    return { deviceName: device.deviceName, unit: await this.users.temperatureUnitOf(userId) };
  }

  /** Every reading (or minute or hour rollup) of the period as CSV rows, a page at a time. */
  readingLines(p: Period & { resolution: ExportResolution; unit: TemperatureUnit }) {
    return readingLines(this.db, p);
  }

  /** Every alert of the period as CSV rows, a page at a time. */
  alertLines(p: Period) {
    return alertLines(this.db, p);
  }

  /** The PDF report of a device's period: daily figures, charts and its alerts. */
  async report(deviceId: string, header: ReportHeader): Promise<PDFKit.PDFDocument> {
    const { from, to, timeZone } = header;
    const [{ reportPdf }, data] = await Promise.all([
      loadReportPdf(),
      reportData(this.db, { deviceId, from, to, timeZone }),
    ]);
    return reportPdf(header, data);
  }
}

import {
  alertTypeLabel,
  NORMAL_RANGES,
  PRIORITY_LABELS,
  TEMPERATURE_SYMBOLS,
  type TemperatureUnit,
  temperatureIn,
} from '@vitalwatch/shared';
import PDFDocument from 'pdfkit';
import {
  REPORT_ALERTS_MAX,
  REPORT_VITALS,
  type ReportData,
  type ReportDay,
  type ReportVital,
} from './report-data.ts';

export interface ReportHeader {
  deviceName: string;
  from: Date;
  to: Date;
  timeZone: string;
  unit: TemperatureUnit;
}

const MARGIN = 40;
const WIDTH = 595.28 - 2 * MARGIN; // A4
const GREY = '#555555';
const BAND = '#d0d0d0';

const LABEL: Record<ReportVital, string> = {
  spo2: 'SpO2',
  heart_rate: 'Heart rate',
  temperature: 'Temperature',
};
const RANGE_KEY = { spo2: 'spo2', heart_rate: 'heartRate', temperature: 'temperature' } as const;

/** The standard PDF fonts write WinAnsi only: anything else (emoji, other scripts) shows as '?'. */
const printable = (text: string) => text.replace(/[^\x20-\x7E\u00A0-\u00FF\u2013\u2014\u00B7]/g, '?');

/**
 * The report a carer brings to a doctor, for one device and period: the period's figures and time
 * in the normal range, a chart of each vital's daily lowest / average / highest, the day-by-day
 * table and the alerts with who acknowledged them. Black and grey only, lines told apart by weight
 * and dashes, so it reads the same printed in black and white. Returns the PDF as a stream.
 */
export function reportPdf(header: ReportHeader, data: ReportData): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `VitalWatch health report: ${printable(header.deviceName)}`, Author: 'VitalWatch' },
  });
  const unitOf = (v: ReportVital) =>
    v === 'spo2' ? '%' : v === 'heart_rate' ? 'bpm' : TEMPERATURE_SYMBOLS[header.unit];
  const shown = (v: ReportVital, value: number | null) =>
    value === null ? null : v === 'temperature' ? temperatureIn(value, header.unit) : value;
  const fmt = (v: ReportVital, value: number | null) => {
    const s = shown(v, value);
    return s === null ? '–' : String(Math.round(s * 10) / 10);
  };
  const dayFormat = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: header.timeZone,
  });
  const timeFormat = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: header.timeZone,
  });

  doc.font('Helvetica-Bold').fontSize(18).text('VitalWatch health report');
  doc.font('Helvetica').fontSize(11).fillColor(GREY);
  doc.text(`Device: ${printable(header.deviceName)}`);
  doc.text(`Period: ${dayFormat.format(header.from)} – ${dayFormat.format(header.to)} (${header.timeZone})`);
  doc.text(
    `Generated: ${timeFormat.format(new Date())}. Readings from a consumer wearable, not a diagnosis.`,
  );
  doc.fillColor('black').moveDown();

  // The period's figures.
  const overall = (v: ReportVital) => {
    let min: number | null = null;
    let max: number | null = null;
    let sum = 0;
    let weight = 0;
    for (const d of data.days) {
      const lo = d[`${v}_min`];
      const hi = d[`${v}_max`];
      const avg = d[`${v}_avg`];
      if (lo !== null) min = min === null ? lo : Math.min(min, lo);
      if (hi !== null) max = max === null ? hi : Math.max(max, hi);
      if (avg !== null) {
        sum += avg * d.readings;
        weight += d.readings;
      }
    }
    return { min, max, avg: weight > 0 ? sum / weight : null };
  };
  const rangeText = (v: ReportVital) => {
    const { min, max } = NORMAL_RANGES[RANGE_KEY[v]];
    return Number.isFinite(max) ? `${fmt(v, min)}–${fmt(v, max)}` : `${fmt(v, min)} or more`;
  };
  doc.font('Helvetica-Bold').fontSize(13).text('Summary');
  table(
    doc,
    ['Vital', 'Readings', 'Lowest', 'Average', 'Highest', 'Normal range', 'Time in range'],
    REPORT_VITALS.map((v) => {
      const o = overall(v);
      const share = data.inRange[v].share;
      return [
        `${LABEL[v]} (${unitOf(v)})`,
        data.inRange[v].readings.toLocaleString('en-US'),
        fmt(v, o.min),
        fmt(v, o.avg),
        fmt(v, o.max),
        rangeText(v),
        share === null ? '–' : `${Math.round(share * 1000) / 10} %`,
      ];
    }),
    [110, 65, 55, 55, 55, 85, 90],
  );
  doc.moveDown();

  // A chart per vital: daily range as a grey band, average as a black line, normal limits dashed.
  doc.font('Helvetica-Bold').fontSize(13).text('Daily trend');
  doc.font('Helvetica').fontSize(9).fillColor(GREY);
  doc.text('Grey band: lowest to highest of each day. Black line: daily average. Dashed: normal range.');
  doc.fillColor('black');
  for (const v of REPORT_VITALS)
    chart(doc, LABEL[v], unitOf(v), data.days, v, (x) => shown(v, x), header, dayFormat);

  // Day by day.
  doc.addPage();
  doc.font('Helvetica-Bold').fontSize(13).text('Day by day (lowest / average / highest)');
  table(
    doc,
    ['Day', 'Readings', ...REPORT_VITALS.map((v) => `${LABEL[v]} (${unitOf(v)})`)],
    data.days.map((d) => [
      dayFormat.format(new Date(`${d.day}T12:00:00Z`)),
      d.readings.toLocaleString('en-US'),
      ...REPORT_VITALS.map(
        (v) => `${fmt(v, d[`${v}_min`])} / ${fmt(v, d[`${v}_avg`])} / ${fmt(v, d[`${v}_max`])}`,
      ),
    ]),
    [90, 60, 125, 125, 115],
  );
  if (data.days.length === 0) doc.font('Helvetica').fontSize(10).text('No readings in this period.');

  // Alerts.
  doc.moveDown();
  doc.font('Helvetica-Bold').fontSize(13).text(`Alerts (${data.alertsTotal})`);
  if (data.alertsTotal > data.alerts.length)
    doc.font('Helvetica').fontSize(9).text(`The newest ${REPORT_ALERTS_MAX} are listed.`);
  table(
    doc,
    ['When', 'Priority', 'Type', 'Alert', 'Handled'],
    data.alerts.map((a) => [
      timeFormat.format(new Date(a.at)),
      PRIORITY_LABELS[a.priority],
      alertTypeLabel(a.alert_type),
      printable(a.alert_title),
      a.acknowledged_at
        ? `Acknowledged by ${printable(a.acknowledged_by ?? 'someone')}, ${timeFormat.format(new Date(a.acknowledged_at))}`
        : a.resolved_at
          ? `Resolved ${timeFormat.format(new Date(a.resolved_at))}`
          : 'Not acknowledged',
    ]),
    [95, 75, 75, 120, 150],
  );
  if (data.alertsTotal === 0) doc.font('Helvetica').fontSize(10).text('No alerts in this period.');
  doc.end();
  return doc;
}

/** A plain table: a bold header row, rows with thin rules, new pages as needed (header repeated). */
function table(doc: PDFKit.PDFDocument, head: string[], rows: string[][], widths: number[]) {
  const rowOf = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8.5);
    const height = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: widths[i]! - 4 }))) + 4;
    if (doc.y + height > doc.page.height - MARGIN) {
      doc.addPage();
      if (!bold) rowOf(head, true);
    }
    const y = doc.y;
    let x = MARGIN;
    cells.forEach((cell, i) => {
      doc.text(cell, x + 2, y + 2, { width: widths[i]! - 4 });
      x += widths[i]!;
    });
    doc
      .moveTo(MARGIN, y + height)
      .lineTo(MARGIN + WIDTH, y + height)
      .lineWidth(0.3)
      .strokeColor(GREY)
      .stroke();
    doc.x = MARGIN;
    doc.y = y + height;
  };
  rowOf(head, true);
  for (const row of rows) rowOf(row, false);
  doc.strokeColor('black');
}

function chart(
  doc: PDFKit.PDFDocument,
  title: string,
  unit: string,
  days: ReportDay[],
  v: ReportVital,
  shown: (value: number | null) => number | null,
  header: ReportHeader,
  dayFormat: Intl.DateTimeFormat,
) {
  const height = 95;
  if (doc.y + height + 30 > doc.page.height - MARGIN) doc.addPage();
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').fontSize(10).text(`${title} (${unit})`);
  const top = doc.y + 4;
  const left = MARGIN + 30;
  const width = WIDTH - 30;
  const points = days.map((d) => ({
    lo: shown(d[`${v}_min`]),
    avg: shown(d[`${v}_avg`]),
    hi: shown(d[`${v}_max`]),
  }));
  const { min: normalMin, max: normalMax } = NORMAL_RANGES[RANGE_KEY[v]];
  const limits = [shown(normalMin), Number.isFinite(normalMax) ? shown(normalMax) : null].filter(
    (x): x is number => x !== null,
  );
  const values = [...points.flatMap((p) => [p.lo, p.hi]), ...limits].filter((x): x is number => x !== null);
  doc.rect(left, top, width, height).lineWidth(0.5).strokeColor(GREY).stroke();
  if (values.length === 0 || points.every((p) => p.avg === null)) {
    doc
      .font('Helvetica')
      .fontSize(9)
      .text('No readings', left + 8, top + height / 2 - 5);
  } else {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const pad = (hi - lo) * 0.1 || 1;
    const [yMin, yMax] = [lo - pad, hi + pad];
    // One slot per day: the day's band and average sit in its middle, inside the frame.
    const step = width / Math.max(1, days.length);
    const x = (i: number) => left + step * (i + 0.5);
    const y = (value: number) => top + height - ((value - yMin) / (yMax - yMin)) * height;
    points.forEach((p, i) => {
      if (p.lo === null || p.hi === null) return;
      const w = Math.max(1.2, step * 0.6);
      doc.rect(x(i) - w / 2, y(p.hi), w, Math.max(0.8, y(p.lo) - y(p.hi))).fill(BAND);
    });
    for (const limit of limits) {
      doc
        .moveTo(left, y(limit))
        .lineTo(left + width, y(limit))
        .dash(3, { space: 3 })
        .lineWidth(0.6)
        .strokeColor('black')
        .stroke();
      doc.undash();
    }
    let drawing = false;
    points.forEach((p, i) => {
      if (p.avg === null) {
        drawing = false;
        return;
      }
      if (drawing) doc.lineTo(x(i), y(p.avg));
      else doc.moveTo(x(i), y(p.avg));
      drawing = true;
    });
    doc.lineWidth(1.4).strokeColor('black').stroke();
    for (const i of points.keys()) {
      const avg = points[i]!.avg;
      if (avg !== null && days.length <= 31) doc.circle(x(i), y(avg), 1.3).fill('black');
    }
    doc.font('Helvetica').fontSize(7).fillColor(GREY);
    doc.text(String(Math.round(yMax)), MARGIN, top - 3, { width: 26, align: 'right' });
    doc.text(String(Math.round(yMin)), MARGIN, top + height - 6, { width: 26, align: 'right' });
  }
  doc.font('Helvetica').fontSize(7).fillColor(GREY);
  const first = days[0]
    ? dayFormat.format(new Date(`${days[0].day}T12:00:00Z`))
    : dayFormat.format(header.from);
  const last = days.at(-1)
    ? dayFormat.format(new Date(`${days.at(-1)!.day}T12:00:00Z`))
    : dayFormat.format(header.to);
  doc.text(first, left, top + height + 2, { width: 120 });
  doc.text(last, left + width - 120, top + height + 2, { width: 120, align: 'right' });
  doc.fillColor('black').strokeColor('black');
  doc.x = MARGIN;
  doc.y = top + height + 14;
}

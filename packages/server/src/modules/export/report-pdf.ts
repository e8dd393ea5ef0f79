import {
  alertTypeLabel,
  NORMAL_RANGES,
  PRIORITY_LABELS,
  TEMPERATURE_SYMBOLS,
  type TemperatureUnit,
  temperatureIn,
} from '@vitalwatch/shared';
import PDFDocument from 'pdfkit';
import { printable, registerReportFonts } from '../../lib/pdf-fonts.ts';
import { chart, RANGE_KEY } from './report-chart.ts';
import { REPORT_ALERTS_MAX, type ReportData } from './report-data.ts';
import { periodDays, REPORT_VITALS, type ReportVital } from './report-days.ts';
import { GREY, heading, MARGIN, paragraph, table } from './report-layout.ts';

export interface ReportHeader {
  deviceName: string;
  /** The period: from `from` up to, not including, `to`. */
  from: Date;
  to: Date;
  timeZone: string;
  unit: TemperatureUnit;
}

const LABEL: Record<ReportVital, string> = {
  spo2: 'SpO2',
  heart_rate: 'Heart rate',
  temperature: 'Temperature',
};

/**
 * The report a carer brings to a doctor, for one device and period: the period's figures and time
 * in the normal range, a chart of each vital's daily lowest / average / highest, the day-by-day
 * table and the alerts with who acknowledged them. Black and grey only, lines told apart by weight
 * and dashes, so it reads the same printed in black and white. Tagged PDF 1.7 for screen readers
 * (headings, paragraphs, tables, charts as figures with alternative text, decoration as artifacts),
 * its text in embedded DejaVu Sans. Returns the PDF as a stream.
 */
export function reportPdf(header: ReportHeader, data: ReportData): PDFKit.PDFDocument {
  const dayFormat = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const timeFormat = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: header.timeZone,
  });
  /** A YYYY-MM-DD calendar day as the report writes it. */
  const dayLabel = (day: string) => dayFormat.format(new Date(`${day}T12:00:00Z`));
  const days = periodDays(header);
  const period = `${dayLabel(days[0]!)} – ${dayLabel(days.at(-1)!)}`;
  const deviceName = printable(header.deviceName);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    pdfVersion: '1.7',
    tagged: true,
    lang: 'en-US',
    displayTitle: true,
    info: {
      Title: `VitalWatch health report: ${deviceName}`,
      Subject: `SpO2, heart rate and temperature of ${deviceName}, ${period} (${header.timeZone})`,
      Author: 'VitalWatch',
    },
  });
  registerReportFonts(doc);
  const root = doc.struct('Document');
  doc.addStructure(root);

  const unitOf = (v: ReportVital) =>
    v === 'spo2' ? '%' : v === 'heart_rate' ? 'bpm' : TEMPERATURE_SYMBOLS[header.unit];
  const shown = (v: ReportVital, value: number | null) =>
    value === null ? null : v === 'temperature' ? temperatureIn(value, header.unit) : value;
  const fmt = (v: ReportVital, value: number | null) => {
    const s = shown(v, value);
    return s === null ? '–' : String(Math.round(s * 10) / 10);
  };

  heading(doc, root, 1, 'VitalWatch health report');
  const grey = { color: GREY };
  paragraph(doc, root, `Device: ${deviceName}`, grey);
  paragraph(doc, root, `Period: ${period} (${header.timeZone})`, grey);
  paragraph(
    doc,
    root,
    `Generated: ${timeFormat.format(new Date())}. Readings from a consumer wearable, not a diagnosis.`,
    grey,
  );
  doc.moveDown();

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
  heading(doc, root, 2, 'Summary');
  table(
    doc,
    root,
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
  heading(doc, root, 2, 'Daily trend');
  paragraph(
    doc,
    root,
    'Grey band: lowest to highest of each day. Black line: daily average. Dashed: normal range.',
    { size: 9, color: GREY },
  );
  for (const v of REPORT_VITALS)
    chart(doc, root, data.days, {
      title: LABEL[v],
      unit: unitOf(v),
      vital: v,
      shown: (x) => shown(v, x),
      first: dayLabel(days[0]!),
      last: dayLabel(days.at(-1)!),
    });

  // Day by day: every day of the period, those without readings too.
  doc.addPage();
  heading(doc, root, 2, 'Day by day (lowest / average / highest)');
  table(
    doc,
    root,
    ['Day', 'Readings', ...REPORT_VITALS.map((v) => `${LABEL[v]} (${unitOf(v)})`)],
    data.days.map((d) => [
      dayLabel(d.day),
      d.readings.toLocaleString('en-US'),
      ...REPORT_VITALS.map((v) =>
        d[`${v}_avg`] === null
          ? '–'
          : `${fmt(v, d[`${v}_min`])} / ${fmt(v, d[`${v}_avg`])} / ${fmt(v, d[`${v}_max`])}`,
      ),
    ]),
    [90, 60, 125, 125, 115],
  );

  // Alerts.
  doc.moveDown();
  heading(doc, root, 2, `Alerts (${data.alertsTotal})`);
  if (data.alertsTotal > data.alerts.length)
    paragraph(doc, root, `The newest ${REPORT_ALERTS_MAX} are listed.`, { size: 9 });
  if (data.alertsTotal === 0) paragraph(doc, root, 'No alerts in this period.', { size: 10 });
  else
    table(
      doc,
      root,
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
  root.end();
  doc.end();
  return doc;
}

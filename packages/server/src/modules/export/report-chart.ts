import { NORMAL_RANGES } from '@vitalwatch/shared';
import { REPORT_FONT } from '../../lib/pdf-fonts.ts';
import type { ReportDay, ReportVital } from './report-days.ts';
import { GREY, heading, MARGIN, WIDTH } from './report-layout.ts';

const BAND = '#d0d0d0';
const HEIGHT = 95;
export const RANGE_KEY = { spo2: 'spo2', heart_rate: 'heartRate', temperature: 'temperature' } as const;

export interface ChartSpec {
  title: string;
  unit: string;
  vital: ReportVital;
  /** A stored value in the unit shown. */
  shown: (value: number | null) => number | null;
  /** The labels of the first and last day. */
  first: string;
  last: string;
}

const round = (x: number) => String(Math.round(x * 10) / 10);

/**
 * One vital's chart: each day's range as a grey band, its average as a black line, the normal
 * limits dashed; one slot per day of the period. Tagged as a Figure whose alternative text says
 * what the drawing shows, for a reader that cannot see it.
 */
export function chart(
  doc: PDFKit.PDFDocument,
  parent: PDFKit.PDFStructureElement,
  days: ReportDay[],
  spec: ChartSpec,
) {
  const { vital: v, shown } = spec;
  if (doc.y + HEIGHT + 30 > doc.page.height - MARGIN) doc.addPage();
  doc.moveDown(0.5);
  heading(doc, parent, 3, `${spec.title} (${spec.unit})`);
  const points = days.map((d) => ({
    lo: shown(d[`${v}_min`]),
    avg: shown(d[`${v}_avg`]),
    hi: shown(d[`${v}_max`]),
  }));
  const { min: normalMin, max: normalMax } = NORMAL_RANGES[RANGE_KEY[v]];
  const limits = [shown(normalMin), Number.isFinite(normalMax) ? shown(normalMax) : null].filter(
    (x): x is number => x !== null,
  );
  const averages = points.flatMap((p) => (p.avg === null ? [] : [p.avg]));
  const alt =
    averages.length === 0
      ? `${spec.title}: no readings from ${spec.first} to ${spec.last}.`
      : `${spec.title} from ${spec.first} to ${spec.last}, ${spec.unit}: daily averages from ` +
        `${round(Math.min(...averages))} to ${round(Math.max(...averages))} on ${averages.length} of ` +
        `${days.length} days; normal range ${limits.map(round).join(' to ')}${limits.length === 1 ? ' or more' : ''}.`;
  const top = doc.y + 4;
  parent.add(doc.struct('Figure', { alt }, () => draw(doc, points, limits, top, spec)));
  doc.fillColor('black').strokeColor('black');
  doc.x = MARGIN;
  doc.y = top + HEIGHT + 14;
}

function draw(
  doc: PDFKit.PDFDocument,
  points: { lo: number | null; avg: number | null; hi: number | null }[],
  limits: number[],
  top: number,
  spec: ChartSpec,
) {
  const left = MARGIN + 30;
  const width = WIDTH - 30;
  const values = [...points.flatMap((p) => [p.lo, p.hi]), ...limits].filter((x): x is number => x !== null);
  doc.rect(left, top, width, HEIGHT).lineWidth(0.5).strokeColor(GREY).stroke();
  if (values.length === 0 || points.every((p) => p.avg === null)) {
    doc
      .font(REPORT_FONT.regular)
      .fontSize(9)
      .text('No readings', left + 8, top + HEIGHT / 2 - 5);
  } else {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const pad = (hi - lo) * 0.1 || 1;
    const [yMin, yMax] = [lo - pad, hi + pad];
    // One slot per day: the day's band and average sit in its middle, inside the frame.
    const step = width / Math.max(1, points.length);
    const x = (i: number) => left + step * (i + 0.5);
    const y = (value: number) => top + HEIGHT - ((value - yMin) / (yMax - yMin)) * HEIGHT;
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
      if (avg !== null && points.length <= 31) doc.circle(x(i), y(avg), 1.3).fill('black');
    }
    doc.font(REPORT_FONT.regular).fontSize(7).fillColor(GREY);
    doc.text(String(Math.round(yMax)), MARGIN, top - 3, { width: 26, align: 'right' });
    doc.text(String(Math.round(yMin)), MARGIN, top + HEIGHT - 6, { width: 26, align: 'right' });
  }
  doc.font(REPORT_FONT.regular).fontSize(7).fillColor(GREY);
  doc.text(spec.first, left, top + HEIGHT + 2, { width: 120 });
  doc.text(spec.last, left + width - 120, top + HEIGHT + 2, { width: 120, align: 'right' });
}

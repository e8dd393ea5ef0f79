import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { printable, REPORT_FONT, registerReportFonts } from '../../lib/pdf-fonts.ts';

/** A4 in points, 12 labels a page (3 × 4), each a QR code with the device's name and code under it. */
const PAGE = { width: 595.28, height: 841.89, margin: 36 };
const COLUMNS = 3;
const ROWS = 4;
const QR_SIZE = 120;
/** The QR standard's quiet zone: four modules of white around the symbol. */
const QUIET_MODULES = 4;

export interface LabelDevice {
  deviceName: string;
  activationCode: string;
}

function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const cell = QR_SIZE / (modules.size + 2 * QUIET_MODULES);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      doc.rect(x + (col + QUIET_MODULES) * cell, y + (row + QUIET_MODULES) * cell, cell, cell);
    }
  }
  doc.fill('#000000');
}

/**
 * The label sheet of Admin → Devices → Print labels: per device, a QR code of its claim link
 * (`claimUrl(code)`, which opens VitalWatch with the activation code filled in), its name and its
 * activation code written out for typing. Black on white, vector QR codes (sharp at any printer
 * resolution).
 */
export function deviceLabelsPdf(devices: LabelDevice[], claimUrl: (code: string) => string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    pdfVersion: '1.7',
    lang: 'en-US',
    displayTitle: true,
    info: { Title: 'VitalWatch device labels', Author: 'VitalWatch' },
  });
  registerReportFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const cellWidth = (PAGE.width - 2 * PAGE.margin) / COLUMNS;
  const cellHeight = (PAGE.height - 2 * PAGE.margin) / ROWS;
  devices.forEach((device, i) => {
    const slot = i % (COLUMNS * ROWS);
    if (i > 0 && slot === 0) doc.addPage();
    const x = PAGE.margin + (slot % COLUMNS) * cellWidth;
    const y = PAGE.margin + Math.floor(slot / COLUMNS) * cellHeight;
    drawQr(doc, claimUrl(device.activationCode), x + (cellWidth - QR_SIZE) / 2, y + 8);
    const textOptions = { width: cellWidth - 16, align: 'center' as const, lineBreak: false, ellipsis: true };
    doc
      .font(REPORT_FONT.bold)
      .fontSize(11)
      .fillColor('#000000')
      .text(printable(device.deviceName), x + 8, y + QR_SIZE + 14, textOptions);
    doc
      .font(REPORT_FONT.regular)
      .fontSize(10)
      .text(`Activation code: ${device.activationCode}`, x + 8, y + QR_SIZE + 32, textOptions);
  });
  if (devices.length === 0) doc.font(REPORT_FONT.regular).fontSize(12).text('No devices yet.');
  doc.end();
  return done;
}

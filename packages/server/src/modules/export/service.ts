/**
 * What other modules use of exports (the share routes): only through this file. Exports keep no
 * state of their own: their routes stream keyset pages of readings and build reports.
 */
export { reportData } from './report-data.ts';
export { reportPdf } from './report-pdf.ts';

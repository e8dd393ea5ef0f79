/**
 * What other modules use of exports (the FHIR and share routes): only through this file. Exports
 * keep no state of their own: their routes stream keyset pages of readings and build reports.
 */
export { type ReadingCursor, readingPage, readingPages, type StoredReading } from './queries.ts';
export { reportData } from './report-data.ts';
export { reportPdf } from './report-pdf.ts';

import { alertsExportQuery, readingsExportQuery, reportQuery } from '../schemas/export.ts';
import { defineContracts, RECORD_ERRORS } from './contract.ts';
import { deviceIdParams } from './health.ts';

/** `/api/v1/export/*`: files of a device the caller may see, over a period. */
export const exportContracts = defineContracts('/export', 'signed-in', {
  readings: {
    method: 'GET',
    path: '/readings/:deviceId',
    summary: 'Readings as CSV',
    params: deviceIdParams,
    query: readingsExportQuery,
    produces: 'text/csv',
    errors: RECORD_ERRORS,
  },
  report: {
    method: 'GET',
    path: '/report/:deviceId',
    summary: 'A PDF report',
    params: deviceIdParams,
    query: reportQuery,
    produces: 'application/pdf',
    errors: RECORD_ERRORS,
  },
  alerts: {
    method: 'GET',
    path: '/alerts/:deviceId',
    summary: 'Alerts as CSV',
    params: deviceIdParams,
    query: alertsExportQuery,
    produces: 'text/csv',
    errors: RECORD_ERRORS,
  },
});

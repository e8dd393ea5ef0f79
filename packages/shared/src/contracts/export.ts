import { alertsExportQuery, readingsExportQuery, reportQuery } from '../schemas/export.ts';
import { defineContracts } from './contract.ts';
import { deviceIdParams } from './health.ts';

const record = [404] as const;

/** `/api/v1/export/*`: files of a device the caller may see, over a period. */
export const exportContracts = defineContracts('/export', 'signed-in', {
  readings: {
    method: 'GET',
    path: '/readings/:deviceId',
    summary: 'Readings as CSV',
    params: deviceIdParams,
    query: readingsExportQuery,
    produces: 'text/csv',
    errors: record,
  },
  report: {
    method: 'GET',
    path: '/report/:deviceId',
    summary: 'A PDF report',
    params: deviceIdParams,
    query: reportQuery,
    produces: 'application/pdf',
    errors: record,
  },
  alerts: {
    method: 'GET',
    path: '/alerts/:deviceId',
    summary: 'Alerts as CSV',
    params: deviceIdParams,
    query: alertsExportQuery,
    produces: 'text/csv',
    errors: record,
  },
});

import { createShareResponse, shareLinksResponse } from '@vitalwatch/shared';
import { apiRequest } from '@/lib/api-client.ts';

/** POST /share/create: a link to the device for `days`; its token comes back this once. */
export const createShareLink = async (deviceId: string, days: number) =>
  (await apiRequest('/share/create', { body: { deviceId, days }, schema: createShareResponse })).data;

/** POST /share/list: the caller's links to the device, newest first. */
export const listShareLinks = async (deviceId: string) =>
  (await apiRequest('/share/list', { body: { deviceId }, schema: shareLinksResponse })).data.links;

/** POST /share/revoke/:id: the link stops working; the caller's links to its device come back. */
export const revokeShareLink = async (id: string) =>
  (await apiRequest(`/share/revoke/${encodeURIComponent(id)}`, { schema: shareLinksResponse })).data.links;

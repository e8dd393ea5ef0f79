import type { Team } from '@vitalwatch/shared';
import { useAdminTeamsQuery } from '../../api/get-teams.ts';

/** The names of the teams a user is in (`userId`) or that hold a device (`deviceId`), by name. */
export function teamNamesOf(teams: readonly Team[], of: { userId: string } | { deviceId: string }): string[] {
  return teams
    .filter((t) =>
      'userId' in of ? t.members.some((m) => m.userId === of.userId) : t.deviceIds.includes(of.deviceId),
    )
    .map((t) => t.name);
}

/** "Ward B – nights, North round", or "None"; for the admin's user and device details. */
export function TeamNames(props: { userId: string } | { deviceId: string }) {
  const { data, isError } = useAdminTeamsQuery();
  if (isError) return <>Could not load teams</>;
  if (!data) return <>…</>;
  const names = teamNamesOf(data, props);
  return <>{names.length > 0 ? names.join(', ') : 'None'}</>;
}

import type { CircleMember } from '@vitalwatch/shared';

/**
 * A person's channel health on their line of the care circle: how many of their browsers are not
 * receiving (their daily checks went unanswered), and whether no channel of theirs works at all
 * (no receiving browser, no verified e-mail, no working webhook). Nothing when all is well.
 */
export function ChannelHealthLine({ member }: { member: CircleMember }) {
  const { browsersNotReceiving: silent, workingChannel } = member;
  if (silent === 0 && workingChannel) return null;
  const browsers = silent === 1 ? 'A browser is not receiving' : `${silent} browsers are not receiving`;
  return (
    <p className="font-medium text-red-700 dark:text-red-300">
      {!workingChannel
        ? 'No working channel: alerts may not reach them'
        : `${browsers} alerts (daily checks unanswered)`}
    </p>
  );
}

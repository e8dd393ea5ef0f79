/** The most ids one mark-read call takes. */
export const MARK_READ_BATCH = 1000;

/** `items` in groups of at most `size`. */
export function inChunks<T>(items: readonly T[], size: number = MARK_READ_BATCH): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * Puts `text` on the clipboard. Rejects when the browser refuses (no secure context, no
 * permission), so the caller can say the copy did not happen.
 */
export async function copyToClipboard(text: string): Promise<void> {
  if (!navigator.clipboard) throw new Error('The clipboard is not available in this browser');
  await navigator.clipboard.writeText(text);
}

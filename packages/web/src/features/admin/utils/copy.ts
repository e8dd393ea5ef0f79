import { toast } from 'react-toastify';
import { copyToClipboard } from '@/lib/clipboard.ts';

export const COPY_FAILED = 'Could not copy to the clipboard';

/** Copies `text` and says so with the spec's toast (`copied`), or says that it could not. */
export async function copyWithToast(text: string, copied: string): Promise<void> {
  try {
    await copyToClipboard(text);
    toast.success(copied);
  } catch {
    toast.error(COPY_FAILED);
  }
}

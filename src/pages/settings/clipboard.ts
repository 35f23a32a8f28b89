import { toast } from '../../ui/Toast';

/** Copies a value for the user and says so; a refusal (no clipboard permission) is reported and rethrown so the button flashes failure. */
export async function copyToClipboard(label: string, value: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(value);
    toast.success(`${label} copied to clipboard`);
  } catch (err) {
    toast.error(`${label} could not be copied`, 'Your browser did not allow access to the clipboard.');
    throw err;
  }
}

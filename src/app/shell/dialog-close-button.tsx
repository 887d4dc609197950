// The close button of a dialog (spec §2 shared widgets: "close button visible by default"): an ×
// in the top-right corner, named 'Close'. Place it inside Dialog.Content.
import { IconButton } from '@radix-ui/themes';
import { Dialog } from '../ui/dialog';

export function DialogCloseButton({ label = 'Close' }: { label?: string }) {
  return (
    <Dialog.Close>
      <IconButton variant="ghost" color="gray" size="2" aria-label={label} className="dialog-close-button">
        <svg width="16" height="16" viewBox="0 0 15 15" fill="none" aria-hidden="true">
          <path d="M11.5 3.5 3.5 11.5M3.5 3.5l8 8" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
        </svg>
      </IconButton>
    </Dialog.Close>
  );
}

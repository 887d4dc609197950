// The hidden file input behind an 'Import CSV' button (the button clicks it through the ref).
import { forwardRef } from 'react';

/** Hands the chosen file to `onFile` and empties itself, so that the same file can be chosen again. */
export const CsvFileInput = forwardRef<HTMLInputElement, { label: string; onFile: (file: File) => void }>(function CsvFileInput({ label, onFile }, ref) {
  return (
    <input
      ref={ref}
      type="file"
      accept=".csv,text/csv"
      hidden
      aria-label={label}
      onChange={(e) => {
        const f = e.target.files?.[0];
        e.target.value = '';
        if (f) onFile(f);
      }}
    />
  );
});

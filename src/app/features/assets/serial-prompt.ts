import './assets.css';
import '../../ui/data-table/list-widgets.css';
import { MSG } from '../../../shared/messages';

// A small native <dialog> asking for a serial number (the 'open device by serial' command). Native
// so it needs no React host: Enter submits, Escape cancels, focus returns where it was. It opens
// inside the app's theme root (.radix-themes), so it has the product's font, colours and buttons
// like every other dialog, not the browser's defaults.
export function askSerial(opts: { title: string; label: string; submitLabel: string }): Promise<string | null> {
  return new Promise((resolve) => {
    const back = document.activeElement as HTMLElement | null;
    const dialog = document.createElement('dialog');
    dialog.className = 'lw-serial-prompt';
    dialog.setAttribute('aria-label', opts.title);
    const form = document.createElement('form');
    form.method = 'dialog';
    const heading = document.createElement('h2');
    heading.textContent = opts.title;
    const label = document.createElement('label');
    label.textContent = opts.label;
    const input = document.createElement('input');
    input.type = 'text';
    input.className = 'lw-input';
    input.autocomplete = 'off';
    input.maxLength = 100;
    input.name = 'serial';
    label.append(input);
    const error = document.createElement('p');
    error.setAttribute('role', 'alert');
    error.className = 'lw-serial-prompt__error';
    const actions = document.createElement('div');
    actions.className = 'lw-serial-prompt__actions';
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'lw-btn';
    cancel.textContent = 'Cancel';
    const ok = document.createElement('button');
    ok.type = 'submit';
    ok.className = 'lw-btn lw-btn--primary';
    ok.textContent = opts.submitLabel;
    actions.append(cancel, ok);
    form.append(heading, label, error, actions);
    dialog.append(form);
    (document.querySelector('.radix-themes') ?? document.body).append(dialog);

    let value: string | null = null;
    const finish = () => {
      dialog.remove();
      back?.focus?.();
      resolve(value);
    };
    form.addEventListener('submit', (e) => {
      const serial = input.value.trim();
      if (!serial) {
        e.preventDefault();
        error.textContent = MSG.serialRequired;
        input.focus();
        return;
      }
      value = serial;
    });
    cancel.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', finish, { once: true });
    // The workspace key listener must not see keys typed here.
    dialog.addEventListener('keydown', (e) => e.stopPropagation());
    dialog.showModal();
    input.focus();
  });
}

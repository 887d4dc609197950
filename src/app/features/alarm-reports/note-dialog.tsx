// 'Add alarm report note' (spec §2, §5, §8): field Note text, buttons Cancel and Add; a note that
// is blank after trimming gives 'Please enter note text.'; success 'Additional note added.' and the
// note appears in Additional notes at once (the answer goes into the cached detail). Ctrl/⌘+Enter
// submits from the note text.
import { useForm } from 'react-hook-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, TextArea } from '@radix-ui/themes';
import { Dialog } from '../../ui/dialog';
import * as v from 'valibot';
import { FormField } from '../../ui/form-field';
import { valibotResolver } from '../../ui/valibot-resolver';
import { toast } from '../../ui/toast';
import { errorFields, errorMessage } from '../../api/query-client';
import { addAlarmReportNote, addNoteToCache } from '../../api/alarm-reports';
import { adminKeys } from '../../api/admin';
import { MSG } from '../../../shared/messages';
import { NOTE_MAX } from '../../../shared/schemas/alarm-reports';
import { ALARM_TEXT } from './alarm-format';
import { ActionButton } from '../../ui/action-button';

type NoteForm = { note: string };
export const noteFormSchema = v.object({
  note: v.pipe(
    v.string(MSG.enterNoteText),
    v.trim(),
    v.nonEmpty(MSG.enterNoteText),
    v.maxLength(NOTE_MAX, `A note can be at most ${NOTE_MAX} characters long.`),
  ),
});

export function NoteDialog({ open, onClose, alarmReportId, alarmId }: { open: boolean; onClose: () => void; alarmReportId: string; alarmId: string }) {
  const qc = useQueryClient();
  const form = useForm<NoteForm>({ defaultValues: { note: '' }, resolver: valibotResolver<NoteForm>(noteFormSchema) });
  const save = useMutation({
    mutationFn: (note: string) => addAlarmReportNote({ alarmReportId, note }),
    onSuccess: (created) => {
      addNoteToCache(qc, alarmId, created);
      void qc.invalidateQueries({ queryKey: adminKeys.audit() });
      toast.success(MSG.noteAdded);
      form.reset({ note: '' });
      onClose();
    },
    onError: (err) => form.setError('note', { message: errorFields(err).note ?? errorMessage(err) }),
  });
  const close = () => {
    if (save.isPending) return;
    form.reset({ note: '' });
    onClose();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && close()}>
      <Dialog.Content maxWidth="34rem" aria-describedby={undefined}>
        <Dialog.Title>{ALARM_TEXT.noteDialogTitle}</Dialog.Title>
        <form
          noValidate
          onSubmit={form.handleSubmit((values) => save.mutate(values.note.trim()))}
          // Ctrl/⌘+Enter in the note submits (Enter alone is a new line).
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.nativeEvent.isComposing) {
              e.preventDefault();
              e.currentTarget.requestSubmit();
            }
          }}
        >
          <FormField label={ALARM_TEXT.noteField} required error={form.formState.errors.note?.message}>
            {(control) => <TextArea {...control} rows={5} maxLength={NOTE_MAX} autoFocus {...form.register('note')} />}
          </FormField>
          <Flex gap="3" justify="end" mt="4">
            <Button type="button" variant="soft" color="gray" onClick={close}>
              {ALARM_TEXT.cancel}
            </Button>
            <ActionButton type="submit" busy={save.isPending}>
              {ALARM_TEXT.add}
            </ActionButton>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

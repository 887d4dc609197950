// The device import, explained where it happens (docs/scanning.md "Import format"): the dialog
// names the columns (which are required, what each holds), offers a template .csv, shows the rows
// imported of total while the server works (with Cancel), and reports what the server did: devices
// created, and serials already present (left as they are).
import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Code, Flex, Text } from '@radix-ui/themes';
import { Table } from '../../ui/table';
import { Dialog } from '../../ui/dialog';
import { deviceKeys, importDevices, saveBlob } from '../../api/devices';
import { toast } from '../../ui/toast';
import { ExportProgressBar } from '../../ui/export-progress';
import { useImportJob } from '../../api/export-jobs';
import { MSG } from '../../../shared/messages';
import {
  IMPORT_COLUMN_HELP,
  IMPORT_OPTIONAL_COLUMNS,
  IMPORT_SERIAL_COLUMN,
  IMPORT_TEMPLATE_CSV,
  IMPORT_TEMPLATE_NAME,
  IMPORT_TYPE_COLUMN,
} from '../../../shared/schemas/devices';
import { importErrorMessage, importOutcome, isCsvFile } from './import';
import { ActionButton } from '../../ui/action-button';

const COLUMNS = [IMPORT_SERIAL_COLUMN, IMPORT_TYPE_COLUMN, ...IMPORT_OPTIONAL_COLUMNS] as const;
const REQUIRED = new Set<string>([IMPORT_SERIAL_COLUMN, IMPORT_TYPE_COLUMN]);

export function ImportDevicesButton() {
  const [open, setOpen] = useState(false);
  const qc = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  // A job of the server's pool: rows imported of total while it runs, with Cancel (nothing is imported).
  const importer = useImportJob((file, o) => importDevices(file, o), {
    onSuccess: async (res) => {
      for (const o of importOutcome(res)) toast[o.kind](o.message);
      setOpen(false);
      await qc.invalidateQueries({ queryKey: deviceKeys.lists() });
    },
    onError: (err) => toast.error(importErrorMessage(err)),
  });
  const onFile = (file: File | undefined) => {
    if (fileRef.current) fileRef.current.value = '';
    if (!file) return;
    if (!isCsvFile(file)) {
      toast.error(MSG.wrongFileType);
      return;
    }
    importer.mutate(file);
  };

  return (
    <>
      {/* Outside the dialog: a file can also be handed to it directly (drag and drop tools, tests). */}
      <input
        ref={fileRef}
        type="file"
        accept=".csv,text/csv"
        hidden
        aria-label="Import devices from a CSV file"
        onChange={(e) => onFile(e.target.files?.[0])}
      />
      {!open && <ExportProgressBar job={importer} />}
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Trigger>
          <ActionButton variant="soft" busy={importer.isPending}>
            Import
          </ActionButton>
        </Dialog.Trigger>
        <Dialog.Content maxWidth="640px">
          <Dialog.Title>Import devices</Dialog.Title>
          <Dialog.Description size="2">{MSG.importFormat}</Dialog.Description>
          <Table.Root size="1" mt="3" aria-label="CSV columns">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Column</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Required</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>What it holds</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {COLUMNS.map((c) => (
                <Table.Row key={c}>
                  <Table.RowHeaderCell>
                    <Code variant="ghost">{c}</Code>
                  </Table.RowHeaderCell>
                  <Table.Cell>{REQUIRED.has(c) ? 'Required' : 'Optional'}</Table.Cell>
                  <Table.Cell>{IMPORT_COLUMN_HELP[c]}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          <Text as="p" size="2" color="gray" mt="3">
            {MSG.importExisting}
          </Text>
          {open && (
            <Flex mt="3">
              <ExportProgressBar job={importer} />
            </Flex>
          )}
          <Flex gap="2" mt="4" justify="between" wrap="wrap">
            <Button variant="ghost" onClick={() => saveBlob(new Blob([IMPORT_TEMPLATE_CSV], { type: 'text/csv' }), IMPORT_TEMPLATE_NAME)}>
              Download template (.csv)
            </Button>
            <Flex gap="2">
              <Dialog.Close>
                <Button variant="soft" color="gray">
                  Cancel
                </Button>
              </Dialog.Close>
              <ActionButton busy={importer.isPending} onClick={() => fileRef.current?.click()}>
                Choose CSV file
              </ActionButton>
            </Flex>
          </Flex>
        </Dialog.Content>
      </Dialog.Root>
    </>
  );
}

// Workspace-wide pieces of bulk update, mounted once by the workspace:
//  - the scan queue starts at once, so scans left from before a reload resolve without visiting the page;
//  - the sticky warning bar (spec: 'There are some selected devices for bulk update' with 'Clear
//    Devices Bulk List' and 'Bulk Update (count)') while the bulk list is not empty and the focused
//    tab is not the asset list, a bulk update page, the customer devices page or a manage page;
//  - a scanner burst outside a text field (src/app/keyboard/scanner.ts) offers "add to bulk list / open
//    device". Scans gather in that one offer (kept in localStorage, so a reload loses none) while
//    it is open: the dialog is a scan target, and nothing in it has focus on opening, so a
//    scanner's Enter never presses one of its buttons.
import { useEffect, useRef } from 'react';
import { atom, useAtom, useAtomValue } from 'jotai';
import { Button, Callout, Dialog, Flex, Text } from '@radix-ui/themes';
import { SCAN_TARGET_ATTR, useScanHandler } from '../../keyboard/scanner';
import { bulkAtom, scanOfferAtom, splitOffer, withScan } from '../../state/bulk';
import { useCan } from '../../state/session';
import { workspaceAtom } from '../../workspace/state';
import { focusedTab } from '../../workspace/model';
import { openRoute } from '../../workspace/actions';
import { getHref, ROUTES, type RouteId } from '../../paths';
import { MSG } from '../../../shared/messages';
import { toast } from '../../ui/toast';
import { errorMessage } from '../../api/query-client';
import { bulkQueue, clearBulkList, scanSerial } from './bulk-service';
import { getDeviceIdBySerial } from './api';
import './bulk.css';

/** Routes where the sticky bar is not shown (spec document 2 "Bulk update page"). */
export const NO_BAR_ROUTES: readonly RouteId[] = ['assets', 'bulkUpdate', 'customerDevices', 'bulkCurrentConfig', 'bulkDeviceTesting', 'bulkChangeConfig'];

export function showStickyBar(listLength: number, route: RouteId | null | undefined): boolean {
  return listLength > 0 && !(route && NO_BAR_ROUTES.includes(route));
}

/** Opens the device tab of a serial, or says it is unknown. */
export async function openDeviceBySerial(serial: string) {
  try {
    const id = await getDeviceIdBySerial(serial);
    if (!id) toast.error(MSG.deviceUnknown);
    else openRoute(getHref('device', { deviceId: id }), { focus: true });
  } catch (err) {
    toast.error(errorMessage(err));
  }
}

/** The focused tab's route (changes when the user moves between tabs, not on every workspace change). */
const focusedRouteAtom = atom((get) => focusedTab(get(workspaceAtom))?.route ?? null);
/** The count the sticky bar shows, 0 while it is hidden: scans into the bulk page itself re-render nothing here. */
const barCountAtom = atom((get) => {
  const n = get(bulkAtom).list.length;
  return showStickyBar(n, get(focusedRouteAtom)) ? n : 0;
});

export function BulkWorkspace() {
  const can = useCan();
  const allowed = can(ROUTES.bulkUpdate.permission);
  const route = useAtomValue(focusedRouteAtom);
  const barCount = useAtomValue(barCountAtom);
  const [offer, setOffer] = useAtom(scanOfferAtom);
  const contentRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (allowed) bulkQueue();
  }, [allowed]);

  useScanHandler(
    allowed
      ? (code) => {
          // On the bulk page itself a scan always goes to the list.
          if (route === 'bulkUpdate') scanSerial(code);
          else setOffer((o) => withScan(o, code));
        }
      : null,
  );

  const close = () => setOffer([]);
  // Only scans in the serial number format are offered; the rest are shown apart, as doubtful.
  const { serials, doubtful } = splitOffer(offer);
  const only = serials.length === 1 ? serials[0] : undefined;

  return (
    <>
      {allowed && barCount > 0 && (
        <div className="bulk-sticky-bar" role="region" aria-label="Bulk list">
          <Text size="2" weight="medium">
            {MSG.stickyBulkBar}
          </Text>
          <Button size="1" variant="soft" color="red" onClick={() => clearBulkList()}>
            {MSG.clearBulkList}
          </Button>
          <Button size="1" onClick={() => openRoute(getHref('bulkUpdate'), { focus: true })}>
            {MSG.bulkUpdateCount(barCount)}
          </Button>
        </div>
      )}
      <Dialog.Root open={allowed && offer.length > 0} onOpenChange={(o) => !o && close()}>
        <Dialog.Content
          ref={contentRef}
          maxWidth="460px"
          {...{ [SCAN_TARGET_ATTR]: '' }}
          onOpenAutoFocus={(e) => {
            // Focus the dialog itself, not a button: the next scan's Enter must not press one.
            e.preventDefault();
            contentRef.current?.focus();
          }}
        >
          <Dialog.Title>{serials.length ? MSG.scanOfferTitle(serials) : MSG.scanOfferNothing}</Dialog.Title>
          <Dialog.Description size="2">{serials.length === 0 ? '' : serials.length === 1 ? MSG.scanOfferOne : MSG.scanOfferMany}</Dialog.Description>
          {serials.length > 1 && (
            <ol className="bulk-scan-offer" aria-label="Scanned serial numbers">
              {serials.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ol>
          )}
          {doubtful.length > 0 && (
            <Callout.Root color="amber" size="1" mt="3" role="status" data-testid="scan-doubtful">
              <Callout.Text>{MSG.scanOfferDoubtful(doubtful)}</Callout.Text>
            </Callout.Root>
          )}
          <Flex gap="2" mt="4" justify="end">
            <Dialog.Close>
              <Button variant="soft" color="gray">
                Cancel
              </Button>
            </Dialog.Close>
            {only !== undefined && can(ROUTES.device.permission) && (
              <Button
                variant="soft"
                onClick={() => {
                  close();
                  void openDeviceBySerial(only);
                }}
              >
                Open device
              </Button>
            )}
            {serials.length > 0 && (
              <Button
                onClick={() => {
                  bulkQueue().enqueueMany(serials);
                  toast.success(MSG.scanOfferAdded(serials.length));
                  close();
                }}
              >
                {MSG.scanOfferAdd(serials.length)}
              </Button>
            )}
          </Flex>
        </Dialog.Content>
      </Dialog.Root>
    </>
  );
}

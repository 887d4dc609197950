// The person list's columns (spec document 1 §2): user name, e-mail, the five role columns and Customer Admin as
// yes/no marks (a clear tick, not a grey disabled checkbox), and Last Login ('Locked' badge, date or '-'). Shared by the page and the
// list benchmark, so the benchmark measures the real cells.
import { Badge } from '@radix-ui/themes';
import { formatShown } from '../../../shared/dates';
import type { DataTableColumn } from '../../ui/data-table/types';
import { YesNoMark } from '../../ui/data-table/yes-no-mark';
import { MSG } from '../../../shared/messages';
import { ROLE_IDS, ROLE_LABELS, type RoleName } from '../../../shared/permissions';
import type { PersonListItem } from './api';

/** The role columns, in the spec's order, then customer administrators (never in the provider-admin column). */
export const ROLE_COLUMNS: RoleName[] = ['SuperAdminRole', 'SuperAdminReadonlyRole', 'ArcManagerRole', 'ArcSupervisorRole', 'ArcControllerRole', 'AdminRole'];
export const ROLE_SORT_PREFIX = 'role:';

/** Spec §9: en-GB, 24-hour clock. */
export const formatLastLogin = (value: string | null | undefined): string => formatShown(value);

export const fullName = (p: PersonListItem) => `${p.FirstName} ${p.LastName}`.trim();

/** `roleId` maps a role name to its id (from the dictionaries, else the fixed ids). */
export function personColumns(roleId: (name: RoleName) => string = (n) => ROLE_IDS[n]): DataTableColumn<PersonListItem>[] {
  return [
    { id: 'name', header: MSG.personsColUserName, sortKey: 'UserName', width: 'minmax(160px, 1.4fr)', cell: (p) => fullName(p) },
    { id: 'email', header: MSG.personsColEmail, sortKey: 'Email', width: 'minmax(200px, 1.8fr)', cell: (p) => p.Email },
    ...ROLE_COLUMNS.map<DataTableColumn<PersonListItem>>((name) => ({
      id: name,
      header: ROLE_LABELS[name],
      sortKey: `${ROLE_SORT_PREFIX}${roleId(name)}`,
      width: 'minmax(92px, 0.7fr)',
      align: 'center',
      cell: (p) => <YesNoMark value={p.Roles.some((r) => r.Name === name || r.Id === roleId(name))} label={`${ROLE_LABELS[name]} for ${fullName(p)}`} />,
    })),
    {
      id: 'lastLogin',
      header: MSG.personsColLastLogin,
      sortKey: 'LastLoginDate',
      width: 'minmax(160px, 1fr)',
      cell: (p) =>
        p.IsLocked ? (
          <Badge color="red" variant="soft">
            {MSG.personsLocked}
          </Badge>
        ) : (
          formatLastLogin(p.LastLoginDate)
        ),
    },
  ];
}

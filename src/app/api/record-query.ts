// The query of one record by its id (a device, a customer's details, an alarm report…): it runs only
// with a valid id (spec §5), and a failure is the page's to show ('… not found.'), not a toast.
import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { isValidId } from '../../shared/codes';

export const recordQuery = <T, K extends QueryKey>(queryKey: K, id: string, fetch: (signal: AbortSignal) => Promise<T>) =>
  queryOptions({ queryKey, queryFn: ({ signal }) => fetch(signal), enabled: isValidId(id), meta: { silent: true } });

// One QueryClient for the app. Spec §9: no refetch on window focus. 4xx answers are final
// (no retry). Unhandled query and mutation errors show the server's message or the default
// (spec §8) unless the query/mutation says it handles them itself:
//   meta: { silent: true }            – no toast at all (the screen shows the error itself)
//   meta: { errorMessage: MSG.xxx }   – toast this message instead of the server's
// A mutation with its own onError is considered handled.
import { QueryCache, QueryClient, MutationCache } from '@tanstack/react-query';
import { toast } from '../ui/toast';
import { messageFromError } from '../../shared/messages';
import type { ErrorBodyDto } from '../../shared/schemas/common';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

type ErrorMeta = { silent?: boolean; errorMessage?: string };

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ErrorMeta & Record<string, unknown>;
    mutationMeta: ErrorMeta & Record<string, unknown>;
  }
}

/** HTTP status of an ofetch FetchError (or anything shaped like one). */
export function errorStatus(err: unknown): number | undefined {
  const e = err as { status?: unknown; statusCode?: unknown; response?: { status?: unknown } } | null;
  const s = e?.status ?? e?.statusCode ?? e?.response?.status;
  return typeof s === 'number' ? s : undefined;
}

/** The server's field messages of a failed call (Content.Errors: { 'person.firstName': message }), or {}. */
export function errorFields(err: unknown): Record<string, string> {
  return (err as { data?: Partial<ErrorBodyDto> } | null)?.data?.Content?.Errors ?? {};
}

/**
 * A failed save of a form, shown once: each error the server gives for a field on that form field
 * (the first one focused), and what is left for above the form returned: the errors of no field,
 * or the whole message when none had a field; null when every error found its field.
 */
export function placeFieldErrors<T extends FieldValues>(
  err: unknown,
  fieldOf: (serverKey: string) => Path<T> | null | undefined,
  setError: UseFormSetError<T>,
): string | null {
  const elsewhere: string[] = [];
  let placed = false;
  for (const [key, msg] of Object.entries(errorFields(err))) {
    const field = fieldOf(key);
    if (field) {
      setError(field, { type: 'server', message: msg }, { shouldFocus: !placed });
      placed = true;
    } else elsewhere.push(msg);
  }
  return placed ? elsewhere.join(' ') || null : errorMessage(err);
}

/** The message to show for a failed call: the server's Content.Message, else 'Something went wrong.' */
export function errorMessage(err: unknown): string {
  return messageFromError((err as { data?: unknown } | null)?.data);
}

function notify(err: unknown, meta: ErrorMeta | undefined, key?: string) {
  if (meta?.silent) return;
  // 401s that survive the refresh end in logout + 'session expired' already.
  if (errorStatus(err) === 401) return;
  if ((err as { name?: string } | null)?.name === 'AbortError') return;
  toast.error(meta?.errorMessage ?? errorMessage(err), key ? { key } : undefined);
}

export const queryClient = new QueryClient({
  // A query's error toast goes once the query loads (the error is fixed).
  queryCache: new QueryCache({
    onError: (err, query) => notify(err, query.meta, `query:${query.queryHash}`),
    onSuccess: (_data, query) => toast.resolve(`query:${query.queryHash}`),
  }),
  mutationCache: new MutationCache({
    onError: (err, _vars, _ctx, mutation) => {
      if (mutation.options.onError) return;
      notify(err, mutation.meta);
    },
  }),
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      retry: (failureCount, err) => {
        const s = errorStatus(err);
        if (s !== undefined && s >= 400 && s < 500) return false;
        return failureCount < 1;
      },
    },
    mutations: { retry: false },
  },
});

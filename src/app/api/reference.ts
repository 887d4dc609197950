// Reference-data calls shared by several screens: the person dictionaries (roles, countries), the
// public feature list and the global settings. One queryOptions factory per endpoint, keys under
// ['reference', ...]; the answer types are the contract's (src/shared/schemas/reference.ts).
import { queryOptions } from '@tanstack/react-query';
import { http, publicHttp } from './http';
import type { DictionariesDto, FeaturesDto, GlobalSettingsDto } from '../../shared/schemas/reference';

/** How long a read of the feature list counts as fresh. */
export const FEATURES_STALE_MS = 30_000;

export const referenceKeys = {
  all: ['reference'] as const,
  dictionaries: () => ['reference', 'dictionaries'] as const,
  features: () => ['reference', 'features'] as const,
  globalSettings: () => ['reference', 'global-settings'] as const,
};

/**
 * GET /ps-admin/dictionaries/get-all — roles (with their ids) and countries, one cached copy for
 * every screen. Silent: each screen has a fallback (the fixed role ids, the built-in country list).
 */
export const dictionariesQuery = () =>
  queryOptions({
    queryKey: referenceKeys.dictionaries(),
    queryFn: ({ signal }) => http<DictionariesDto>('/ps-admin/dictionaries/get-all', { signal }),
    staleTime: Infinity,
    meta: { silent: true },
  });

/**
 * GET /features/all (public; the sign-in page reads SingleSignOn from it). Stale after 30 s and
 * re-read on window focus, so a feature switched in the provider settings reaches signed-in users
 * without a reload.
 */
export const featuresQuery = () =>
  queryOptions({
    queryKey: referenceKeys.features(),
    queryFn: ({ signal }) => publicHttp<FeaturesDto>('/features/all', { signal }),
    staleTime: FEATURES_STALE_MS,
    refetchOnWindowFocus: true,
    meta: { silent: true },
  });

/** Spec §1: an unknown feature counts as off. */
export function isFeatureOn(list: FeaturesDto | undefined, name: string): boolean {
  return !!list?.Features?.find((f) => f.FeatureName === name)?.IsEnabled;
}

/** GET /customers/get-global-settings — TwoFactorAuthentication.Mode.Value 1: a second factor is compulsory. */
export const globalSettingsQuery = () =>
  queryOptions({
    queryKey: referenceKeys.globalSettings(),
    queryFn: ({ signal }) => http<GlobalSettingsDto>('/customers/get-global-settings', { signal }),
  });

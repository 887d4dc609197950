// Own-profile strings the spec does not quote (labels for assistive technology and the reload
// offer after a conflict). Strings the spec quotes come from MSG.
export const PROFILE_TEXT = {
  countryButton: (label: string, country: string, dial: string) => `${label} country: ${country} +${dial}`,
  countryButtonNone: (label: string) => `${label} country: none chosen`,
  countryListFor: (label: string) => `Countries for the ${label} number`,
  countrySearch: 'Search country',
  primaryFor: (label: string) => `Primary (${label})`,
  loading: 'Loading…',
  reload: 'Reload',
} as const;

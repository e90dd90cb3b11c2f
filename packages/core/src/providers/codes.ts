/** Stable codes of the errors the network providers add to the SDK's own (`ERROR_CODES`). */
export const PROVIDER_ERROR_CODES = {
  /** A provider answered with a non-2xx HTTP status (see `ProviderHttpError`). */
  LOUSHO_PROVIDER_HTTP_ERROR: 'LOUSHO_PROVIDER_HTTP_ERROR',
  /** A provider needs an API key and none was given or found in the environment. */
  LOUSHO_MISSING_API_KEY: 'LOUSHO_MISSING_API_KEY',
  /** A model string names a provider the registry does not know. */
  LOUSHO_UNKNOWN_PROVIDER: 'LOUSHO_UNKNOWN_PROVIDER',
  /** Every provider given to `withFallback()` failed. */
  LOUSHO_ALL_PROVIDERS_FAILED: 'LOUSHO_ALL_PROVIDERS_FAILED',
} as const;

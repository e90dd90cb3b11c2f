/**
 * Environment access that is safe in browsers: `globalThis.process?.env` when there is a process,
 * an empty object otherwise. Nothing here imports `node:*`.
 */

/** Environment variables as a plain record (e.g. `process.env`, or your own for tests). */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/** `env` when given, else the process environment when there is one, else `{}`. */
export function providerEnv(env?: ProviderEnv): ProviderEnv {
  if (env) return env;
  const processEnv = (globalThis as { process?: { env?: ProviderEnv } }).process?.env;
  return processEnv ?? {};
}

/** A variable's value, with blank values treated as unset. */
export function readVar(env: ProviderEnv, name: string): string | undefined {
  const value = env[name];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

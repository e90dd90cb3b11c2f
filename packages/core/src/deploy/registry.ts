import { ERROR_CODES, SDKError } from '@lousho/protocol';

/** What `lousho build` hands a deployment adapter. */
export interface DeploymentBuildContext {
  /** Absolute path of the agent module (its default export is an agent, or a function of the environment returning one). */
  entry: string;
  /** Absolute path of the directory to write into (created and emptied by `lousho build`, which refuses a folder holding anything it did not write). */
  outDir: string;
  /** The project directory (where `lousho build` runs). */
  cwd: string;
  /** Where the agent's HTTP handler is mounted in the server (default `/api/agent`). */
  basePath: string;
  /** Extra package.json export conditions to resolve modules with (e.g. a monorepo's source condition). */
  conditions: readonly string[];
  /**
   * Write source maps next to the bundle (`lousho build --sourcemap`; default false). A map holds
   * the full sources of everything bundled: ship it only where the sources may go.
   */
  sourcemap?: boolean;
  /** Progress lines for the person running the build. */
  log(message: string): void;
}

/** What a `DeploymentAdapter.build()` wrote, and how to start it. */
export interface DeploymentBuildResult {
  /** The files written, relative to `outDir`. */
  files: string[];
  /** How to run or ship what was built (printed after the build). */
  instructions: string;
}

/** A deployment target of `lousho build --target <name>`. */
export interface DeploymentAdapter {
  /** Letters, digits and `-` (the `--target` value). */
  name: string;
  /** One line for `lousho build --help` and `listAdapters()`. */
  description: string;
  /** Writes the deployable output into `context.outDir` and says how to run it. */
  build(context: DeploymentBuildContext): Promise<DeploymentBuildResult>;
}

// One registry per process, even when the package is loaded twice (a linked and an installed copy).
const REGISTRY_KEY = Symbol.for('lousho.deploymentAdapters');
const registry: Map<string, DeploymentAdapter> = ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] as Map<string, DeploymentAdapter> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] = new Map<string, DeploymentAdapter>());

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Adds a deployment target for `lousho build --target <name>`. A name already taken is an error
 * unless `replace` is set (to swap a built-in target for your own).
 */
export function registerAdapter(adapter: DeploymentAdapter, options: { replace?: boolean } = {}): void {
  if (typeof adapter !== 'object' || adapter === null || typeof adapter.build !== 'function') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'registerAdapter() needs { name, description, build(context) }.', { hint: 'See DeploymentAdapter in the deployment docs.' });
  }
  if (typeof adapter.name !== 'string' || !NAME.test(adapter.name)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Deployment adapter name ${JSON.stringify(adapter.name)} is not usable.`, { hint: "Use lower-case letters, digits and '-', e.g. 'fly-io'." });
  }
  if (typeof adapter.description !== 'string') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Deployment adapter '${adapter.name}' needs a description.`, { hint: 'One line, shown by lousho build --help.' });
  }
  if (registry.has(adapter.name) && !options.replace) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `A deployment adapter named '${adapter.name}' is already registered.`, { hint: 'Pick another name, or pass { replace: true } to replace it.' });
  }
  registry.set(adapter.name, adapter);
}

/** The adapter registered under `name`, if any. */
export function getAdapter(name: string): DeploymentAdapter | undefined {
  return registry.get(name);
}

/** Every registered adapter, in registration order. */
export function listAdapters(): DeploymentAdapter[] {
  return [...registry.values()];
}

// `$env/dynamic/private` for tests of server code outside a SvelteKit build: on Node, SvelteKit's
// (adapter-node) is the process's environment, read when it is used, as here.
export const env: Record<string, string | undefined> = process.env;

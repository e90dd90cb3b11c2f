// Only for the tests' .svelte components (the package ships TypeScript, no components).
export default {};

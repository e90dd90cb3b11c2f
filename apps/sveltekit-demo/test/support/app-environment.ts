// `$app/environment` as the built server has it (the tests run the server code, never a build).
export const building = false;
export const dev = false;
export const browser = false;

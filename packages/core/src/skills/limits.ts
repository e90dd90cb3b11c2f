/** Largest SKILL.md read, in bytes: a larger one is refused when the folder is loaded (LOUSHO_INVALID_SKILL). */
export const MAX_SKILL_MD_BYTES = 256 * 1024;
/** Most of one skill file read, in bytes: past it the file is cut (the model is told). */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** Longest text `load_skill` answers (instructions or a file), in characters: past it the text is cut (the model is told). */
export const MAX_SKILL_TEXT_CHARS = 100_000;

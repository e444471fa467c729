// What a CLI wrote, made safe to print in an error message.
/**
 * Terminal escapes (colours, cursor moves, OSC titles and clipboard writes) and other control characters
 * but tab: an error message is printed to a terminal by its reader, and what the CLI (or a command the
 * agent ran) wrote to stderr must not drive that terminal. OpenCode colours its errors even off a terminal.
 */
const CONTROLS = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])|[\x00-\x08\x0b-\x1f\x7f]/g;

/** The text without terminal escapes and control characters (tab and newline stay). */
export const withoutControls = (text: string): string => text.replace(CONTROLS, '');

/*
 * Age of Discovery's defaults, in a module of their own so that the command definitions
 * (src/cli/program.ts) can show them without loading the game.
 */

/** Players when a start names none (the smallest game appendix C allows). */
export const DEFAULT_PLAYERS = 9;
/** The map seed when none is given (`entente render --variant discovery`). */
export const DEFAULT_MAP_SEED = 1;

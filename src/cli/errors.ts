/*
 * A user's mistake found by a command (a bad file, a bad value): one line on stderr and exit
 * status 2 (run.ts). A module of its own so that the command line can catch it without
 * loading the commands that throw it (program.ts loads those when they run).
 */
export class CliError extends Error {}

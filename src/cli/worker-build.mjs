// esbuild's options for the self-play worker's code (selfplay-worker.ts), shared by the two
// places that bundle it: `bin/entente` at its start (plain.mjs) and `workerScript` under tsx
// (selfplay.ts). Plain JavaScript, because plain.mjs runs before any TypeScript loader.

/**
 * One CommonJS script for `new Worker(code, { eval })`, for Node 20, kept in memory (not
 * written); esbuild's own log silent (a caller reads the warnings and throws).
 */
export const workerBuildOptions = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  write: false,
  logLevel: "silent",
};

// The types of worker-build.mjs (esbuild's options for the self-play worker's code).
import type { BuildOptions } from "esbuild";

export declare const workerBuildOptions: BuildOptions & { write: false };

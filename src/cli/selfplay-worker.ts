import { parentPort, workerData } from "node:worker_threads";
import { getScenario } from "../variants/scenarios.ts";
import { playShare, type WorkerJob } from "./selfplay-share.ts";

// A self-play worker thread: plays games from the shared counter and reports each one. It
// runs as plain JavaScript: selfplay.ts bundles this file (with the engine and the variants)
// when the command starts, so a worker loads no TypeScript loader and compiles nothing.
const job = workerData as WorkerJob;
const scenario = getScenario(job.variant, job.players);
const port = parentPort;
if (!scenario || !port) throw new Error("the self-play worker was started without its job");
playShare(scenario, job, (g) => port.postMessage(g));

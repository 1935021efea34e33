import { parentPort, workerData } from "node:worker_threads";
import { getScenario } from "../variants/scenarios.ts";
import { playOne, type WorkerJob } from "./selfplay.ts";

// A self-play worker thread: plays its share of the games and reports each one.
const job = workerData as WorkerJob;
const scenario = getScenario(job.variant, job.players);
if (!scenario || !parentPort) throw new Error("the self-play worker was started without its job");
for (const index of job.indices) {
  parentPort.postMessage(playOne(scenario, job.rules, job.seed, job.until, index, job.keepRecords));
}

import { parentPort, workerData } from "node:worker_threads";
import type { GameRecord } from "../engine/record.ts";
import { recordGif } from "../render/export.ts";
import { getVariant } from "../variants/registry.ts";

// A thread that draws one game's GIF (pictures.ts), so the server goes on answering meanwhile.
const job = workerData as { record: GameRecord; palette: "standard" | "colorblind"; width: number };
const variant = getVariant(job.record.variant);
if (!variant || !parentPort) throw new Error("the GIF worker was started without its game");
parentPort.postMessage(recordGif(variant, job.record, { palette: job.palette, width: job.width }));

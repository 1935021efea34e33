// Random self-play benchmark: node --import tsx bench/selfplay.ts [games] [seed] [until] [path]
// (the same as `bin/entente bench selfplay`, without loading the rest of the CLI); path is
// `typed` (default) or `text`. Prints one JSON line.
import { benchSelfPlay } from "../src/cli/bench.ts";

const [games = "200", seed = "12345", until = "1935", path = "typed"] = process.argv.slice(2);
if (path !== "typed" && path !== "text") throw new Error(`path must be typed or text, not ${path}`);
console.log(JSON.stringify(benchSelfPlay(Number(games), Number(seed), Number(until), path)));

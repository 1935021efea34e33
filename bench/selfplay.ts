// Random self-play benchmark: node --import tsx bench/selfplay.ts [games] [seed] [until]
// (the same as `bin/entente bench selfplay`). Prints one JSON line.
import { benchSelfPlay } from "../src/cli/bench.ts";

const [games = "200", seed = "12345", until = "1935"] = process.argv.slice(2);
console.log(JSON.stringify(benchSelfPlay(Number(games), Number(seed), Number(until))));

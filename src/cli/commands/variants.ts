import { Argument, type Command } from "commander";
import {
  allVariants,
  completes,
  examples,
  group,
  type Io,
  jsonOption,
  type Run,
  reported,
  UsageError,
} from "../define.ts";

/* `entente variants` and `entente variant show|check`: the variant ids, one as JSON, a data file checked. */

export function addVariants(program: Command, io: Io, run: Run): void {
  examples(
    program
      .command("variants")
      .summary("list the variant ids, one per line")
      .description("Lists every variant id, the game families (global, discovery) included.")
      .action(
        run(async () => {
          io.out(`${(await allVariants()).join("\n")}\n`);
          return 0;
        }),
      ),
    [["entente variants", "classical, europe1935, global, discovery, ..."]],
  );
  const variant = group(
    program,
    "variant",
    "show a variant, or check a variant data file",
    "A variant as JSON, or a variant data file checked (docs/variant.schema.json).",
    [
      ["entente variant show classical", "powers, provinces, adjacency, start"],
      ["entente variant check my-map.json", "every problem of a variant file, or its summary"],
    ],
  );
  examples(
    variant
      .command("show")
      .summary("print a variant as JSON")
      .description("Prints a variant as JSON: powers, provinces with adjacency, the start.")
      .addArgument(completes(new Argument("<ID>", "the variant id (entente variants)"), "variants"))
      .action(run(async (id: string) => variantShow(io, id))),
    [["entente variant show europe1935", "the 1935 map as JSON"]],
  );
  examples(
    variant
      .command("check")
      .summary("validate a variant data file")
      .description(
        "Validates a variant data file (docs/variant.schema.json): every problem with its path,\nor a summary of the variant. Exit status 1 when it has problems.",
      )
      .argument("<FILE>", "the variant file (JSON)")
      .addOption(jsonOption("the result"))
      .action(
        run(async (file: string, o: { json?: boolean }) => {
          const { checkVariantFile } = await import("../variant-check.ts");
          const r = checkVariantFile(file, o.json);
          const text = r.report.endsWith("\n") ? r.report : `${r.report}\n`;
          return reported(
            io,
            { text, ok: r.ok },
            "variant check",
            `${file} is not a valid variant file`,
          );
        }),
      ),
    [
      ["entente variant check my-map.json", "a summary, or every problem"],
      ["entente variant check my-map.json --json", "the same as JSON"],
    ],
  );
}

/** `entente variant show ID`: a variant as JSON (a game family: its own description). */
async function variantShow(io: Io, id: string): Promise<number> {
  const { getGame, getVariant } = await import("../../variants/registry.ts");
  const { writePosition } = await import("../../engine/position-json.ts");
  const game = getGame(id);
  if (game) {
    io.out(`${JSON.stringify(game.describe(), null, 1)}\n`);
    return 0;
  }
  const v = getVariant(id);
  if (!v)
    throw new UsageError(`unknown variant "${id}"; known: ${(await allVariants()).join(", ")}`);
  const name = (l: { province: string; coast: string | null }) =>
    l.coast ? `${l.province}/${l.coast}` : l.province;
  const provinces = v.map.provinces.map((p) => ({
    id: p.id,
    name: p.name,
    aliases: p.aliases,
    type: p.kind,
    coasts: p.coasts,
    supplyCenter: p.supplyCenter,
    home: p.home,
    adjacency: {
      army: v.map.armyNeighbours(p.id),
      fleet:
        p.coasts.length > 0
          ? Object.fromEntries(
              p.coasts.map((c) => [
                c,
                v.map.fleetNeighbours({ province: p.id, coast: c }).map(name),
              ]),
            )
          : v.map.fleetNeighbours({ province: p.id, coast: null }).map(name),
    },
  }));
  const out = {
    id: v.id,
    name: v.name,
    victoryCenters: v.victoryCenters,
    powers: v.powers,
    provinces,
    start: writePosition(v, v.start),
  };
  io.out(`${JSON.stringify(out, null, 2)}\n`);
  return 0;
}

// Writes docs/cli.md's command reference from the command definitions (src/cli/program.ts):
//   node --import tsx scripts/cli-docs.ts
// src/cli/cli-definitions.test.ts fails when the file and the definitions differ.
import { readFileSync, writeFileSync } from "node:fs";
import { buildProgram } from "../src/cli/program.ts";
import { cliReference, withReference } from "../src/cli/reference.ts";

const file = new URL("../docs/cli.md", import.meta.url);
const { program } = buildProgram({ out: () => {}, err: () => {}, stdin: () => "" });
const before = readFileSync(file, "utf8");
const after = withReference(before, cliReference(program));
writeFileSync(file, after);
console.log(after === before ? "docs/cli.md: up to date" : "docs/cli.md: reference rewritten");

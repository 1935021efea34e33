// The esbuild plugin shared by the two places that run Entente's TypeScript as plain bundled
// JavaScript: `bin/entente` (src/cli/plain.mjs) and the test runner (scripts/test.mjs). Plain
// JavaScript, because both run before any TypeScript loader.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Packages are imported from where they are installed (a bundle lives in a cache folder),
 * resolved as Node resolves an import; each module keeps its own `import.meta.url`,
 * `import.meta.dirname` and `import.meta.filename` (files found beside a source file), and
 * `import.meta.resolve("package")` is resolved at bundling, as from here (the GIF worker
 * registers tsx, src/server/pictures.ts). Any other use of `import.meta` is an error.
 */
export function bundlePlugin(name) {
  return {
    name,
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (a) => {
        if (a.pluginData === "inner" || a.path.startsWith("node:")) return undefined;
        const r = await b.resolve(a.path, {
          kind: a.kind,
          resolveDir: a.resolveDir,
          pluginData: "inner",
        });
        if (r.errors.length > 0 || r.external) return undefined;
        return { path: pathToFileURL(r.path).href, external: true };
      });
      b.onLoad({ filter: /\.ts$/ }, (a) => {
        const text = readFileSync(a.path, "utf8");
        if (!text.includes("import.meta")) return undefined;
        const contents = text
          .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(a.path).href))
          .replaceAll("import.meta.dirname", JSON.stringify(dirname(a.path)))
          .replaceAll("import.meta.filename", JSON.stringify(a.path))
          .replace(/import\.meta\.resolve\(("[^"./][^"]*")\)/g, (_, spec) =>
            JSON.stringify(import.meta.resolve(JSON.parse(spec))),
          );
        if (contents.includes("import.meta"))
          return {
            errors: [
              {
                text: `${a.path}: only import.meta.url, .dirname, .filename and .resolve("package") are bundled`,
              },
            ],
          };
        return { contents, loader: "ts" };
      });
    },
  };
}

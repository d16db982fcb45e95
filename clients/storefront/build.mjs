// Bundles src/main.ts (with the typed client of ../typescript and openapi-fetch) and
// src/storefront.css into ../../storefront/static/storefront/starter/, the folder the demo
// serves at /demo/storefront/. The output is committed: `npm run build` after every change
// (tests/clients/test_storefront_bundle.py fails when it differs from these sources).
//
//   node build.mjs                  the committed folder
//   node build.mjs --outdir DIR     elsewhere (the test compares DIR with the committed one)
//   node build.mjs --watch          rebuild on every change (with `make run` serving the page)
import * as esbuild from "esbuild";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { outdir: { type: "string" }, watch: { type: "boolean", default: false } },
});

const options = {
  entryPoints: [
    { in: "src/main.ts", out: "storefront" },
    { in: "src/storefront.css", out: "storefront" },
  ],
  outdir: values.outdir ?? "../../storefront/static/storefront/starter",
  bundle: true,
  format: "esm",
  target: ["es2022", "chrome109", "firefox115", "safari16"],
  charset: "utf8",
  // Readable output (a starting point to read), one file each, no source map.
  minify: false,
  legalComments: "none",
  // client.ts in ../typescript imports openapi-fetch: take this package's copy (resolved
  // from this folder), whether or not ../typescript has its own node_modules.
  alias: { "openapi-fetch": "./node_modules/openapi-fetch" },
  logLevel: "warning",
};

if (values.watch) {
  const context = await esbuild.context({ ...options, logLevel: "info" });
  await context.watch();
} else {
  await esbuild.build(options);
}

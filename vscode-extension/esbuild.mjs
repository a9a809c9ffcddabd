// Bundles src/extension.ts and its npm dependencies into dist/extension.js, the file package.json's
// `main` names and the .vsix ships (`vscode` is the editor's own module). `--production` minifies.
import process from "node:process";
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");

await esbuild.build({
  entryPoints: ["src/extension.ts"],
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node18",
  outfile: "dist/extension.js",
  external: ["vscode"],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: "warning",
});

import { defineConfig } from "tsdown";
import { typescriptGo } from "../../scripts/declarations.ts";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: { sourcemap: false, tsconfig: "tsconfig.declarations.json", ...typescriptGo },
  fixedExtension: true,
  platform: "neutral",
  sourcemap: false,
});

// Run by `npm test` outside turbo. Reads every published package packed as `npm run release:dry-run`
// and `changeset publish` pack it (once for the run, by test/packed-packages.ts), its tarball: each carries its README, CHANGELOG and licence,
// and a package.json that names its repository (with its folder) and homepage, so that a
// partner's Renovate or Dependabot finds the release notes, and only the files it declares.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { tarballFiles, tarballText } from "../tarball.ts";

const root = path.resolve(import.meta.dirname, "../..");
const packed = inject("packedPackages");
const rootLicense = readFileSync(path.join(root, "LICENSE"), "utf8");

type Manifest = {
  name: string;
  files: string[];
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
};

describe("the published packages' tarballs", () => {
  it("are the four partners install", () => {
    expect(packed.map((pkg) => pkg.name).sort()).toEqual([
      "@org/payments-client",
      "@org/payments-mcp",
      "@org/payments-mock",
      "@org/payments-types",
    ]);
  });

  describe.each(packed)("$name", (pkg) => {
    const files = tarballFiles(pkg.tarball).map((file) => file.path);
    const manifest = JSON.parse(tarballText(pkg.tarball, "package.json") ?? "{}") as Manifest;
    const folder = pkg.folder;

    it("carries its README, CHANGELOG and licence beside its package.json", () => {
      expect(files).toEqual(
        expect.arrayContaining(["package.json", "README.md", "CHANGELOG.md", "LICENSE"]),
      );
      expect(tarballText(pkg.tarball, "LICENSE")).toBe(rootLicense);
      expect(tarballText(pkg.tarball, "CHANGELOG.md")).toMatch(new RegExp(`^# ${pkg.name}\\n`));
    });

    it("holds every entry its package.json declares (its build among them)", () => {
      const missing = manifest.files.filter(
        (entry) => !files.some((file) => file === entry || file.startsWith(`${entry}/`)),
      );
      expect(missing, `${folder} is not built: run \`npm run build\` first`).toEqual([]);
    });

    it("holds only the files its package.json declares", () => {
      const declared = (file: string) =>
        file === "package.json" ||
        manifest.files.some((entry) => file === entry || file.startsWith(`${entry}/`));
      expect(files.filter((file) => !declared(file))).toEqual([]);
    });

    it("names its repository, with its folder, its homepage and where to report a bug", () => {
      expect(manifest.repository).toEqual({
        type: "git",
        url: expect.stringMatching(/^git\+https:\/\/.+\.git$/),
        directory: folder,
      });
      const web = manifest.repository?.url?.replace(/^git\+/, "").replace(/\.git$/, "");
      expect(manifest.homepage).toBe(`${web}/tree/main/${folder}#readme`);
      expect(manifest.bugs).toEqual({ url: `${web}/issues` });
    });

    it("has real versions where the workspace has `workspace:` and `catalog:` ranges", () => {
      expect(tarballText(pkg.tarball, "package.json")).not.toMatch(/"(workspace|catalog):/);
    });
  });
});

describe("the published packages' READMEs", () => {
  it.each(packed)(
    "$name says how to install its released package, with no pre-release steps",
    (pkg) => {
      const readme = readFileSync(path.join(root, pkg.folder, "README.md"), "utf8");
      expect(readme).not.toMatch(/until the first release|once released/i);
      expect(readme).toMatch(new RegExp(`(npm install|npx -y)[^\\n]* ${pkg.name}\\b`));
    },
  );
});

// The lifecycle pictures of the built site are the sandbox's lifecycles: each SVG has a node for
// every state and an arrow for every start and transition of the data in the sandbox's code, and
// nothing else; the Lifecycles guide shows each picture with a table row per transition.
import { readFileSync } from "node:fs";
import path from "node:path";
import { listOperations, type OpenApiDocument } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { builtTestModeSpecPath, distDir } from "../src/built-paths.ts";
import {
  diagramFile,
  initialId,
  lifecycleDot,
  stateId,
  transitionId,
} from "../src/lifecycle-diagrams.ts";
import { LIFECYCLES } from "../src/sandbox-data.ts";
import { externalResources } from "../src/self-contained.ts";
import { lifecycleOfStatusRoute } from "../src/test-mode-doc.ts";

const guidesDir = path.join(distDir, "guides");
const page = readFileSync(path.join(guidesDir, "lifecycles.html"), "utf8");
const testMode = JSON.parse(readFileSync(builtTestModeSpecPath, "utf8")) as OpenApiDocument;

/** The ids of the SVG's groups of one class (`node` or `edge`), as Graphviz wrote them. */
function groups(svg: string, kind: "node" | "edge"): string[] {
  return [...svg.matchAll(/<g id="([^"]+)" class="([^"]+)"/g)]
    .filter(([, , classes]) => classes?.split(" ").includes(kind))
    .map(([, id]) => (id ?? "").replaceAll("&#45;", "-"));
}

describe.each(LIFECYCLES.map((lifecycle) => [lifecycle.collection, lifecycle] as const))(
  "the %s lifecycle's picture",
  (_, lifecycle) => {
    const svg = readFileSync(path.join(guidesDir, diagramFile(lifecycle)), "utf8");

    it("has a node for every state", () => {
      const states = groups(svg, "node").filter((id) => id.startsWith("state-"));
      expect(states.sort()).toEqual(lifecycle.states.map(stateId).sort());
      for (const state of lifecycle.states) expect(svg).toContain(`>${state}</text>`);
    });

    it("has an arrow for every start and every transition, and no other", () => {
      const expected = [
        ...lifecycle.initial.map((initial) => initialId(initial.state)),
        ...lifecycle.transitions.map((t) => transitionId(t.from, t.to)),
      ];
      expect(groups(svg, "edge").sort()).toEqual(expected.sort());
      for (const t of lifecycle.transitions) {
        expect(lifecycleDot(lifecycle)).toContain(`"${t.from}" -> "${t.to}"`);
      }
    });

    it("is an SVG that loads nothing", () => {
      expect(svg.startsWith("<svg")).toBe(true);
      expect(externalResources(svg)).toEqual([]);
      expect(svg).not.toMatch(/(?:href|src)="(?:https?:)?\/\//);
    });

    it("is shown in the Lifecycles guide with a row for every transition", () => {
      expect(page).toContain(`<img src="${diagramFile(lifecycle)}"`);
      const figure = page.indexOf(`data-lifecycle="${lifecycle.collection}"`);
      expect(figure).toBeGreaterThan(-1);
      for (const t of lifecycle.transitions) {
        expect(page).toContain(`data-transition="${t.from}-${t.to}"`);
      }
    });
  },
);

describe("the test-mode reference", () => {
  it("shows the lifecycle picture on the route that walks it", () => {
    const statusRoutes = listOperations(testMode).filter((entry) => entry.path.endsWith("/status"));
    expect(
      statusRoutes.map((entry) => lifecycleOfStatusRoute(entry.path)?.collection).sort(),
    ).toEqual(LIFECYCLES.map((lifecycle) => lifecycle.collection).sort());
    for (const entry of statusRoutes) {
      const lifecycle = lifecycleOfStatusRoute(entry.path);
      expect(entry.operation.description).toContain(
        `(guides/${lifecycle && diagramFile(lifecycle)})`,
      );
    }
  });
});

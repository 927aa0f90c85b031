// Draws each lifecycle of the sandbox as an SVG state diagram at build time: Graphviz (the
// @viz-js/viz WebAssembly build, run in this process) lays out a DOT graph made from the
// lifecycle data, so a picture cannot drift from the code and nothing is fetched from another
// host. Each state is a node with id `state-<name>`, each transition an edge with id
// `transition-<from>-<to>` (`initial-<to>` for a start), which the tests read back.
import { instance } from "@viz-js/viz";
import type { Lifecycle, Transition } from "./sandbox-data.ts";

/** The colour of each cause, as the guide's legend names them. */
export const CAUSE_COLOURS: Record<Transition["cause"], string> = {
  request: "#1d4ed8",
  cascade: "#7c3aed",
  simulation: "#c2410c",
  time: "#0f766e",
};

const FONT = "Helvetica,Arial,sans-serif";

/** A lifecycle's file name: `customers` → `lifecycle-customers.svg`. */
export const diagramFile = (lifecycle: Lifecycle) => `lifecycle-${lifecycle.collection}.svg`;

export const stateId = (state: string) => `state-${state}`;
export const transitionId = (from: string, to: string) => `transition-${from}-${to}`;
export const initialId = (to: string) => `initial-${to}`;

/** How long after the state before, in words: `1 min`, `365 d`. */
export function duration(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** A transition's label: its cause (and delay), then what makes it happen, wrapped. */
function transitionLabel(t: Pick<Transition, "cause" | "when" | "afterSeconds">) {
  const cause =
    t.afterSeconds === undefined ? t.cause : `${t.cause}, after ${duration(t.afterSeconds)}`;
  return [cause, ...wrap(t.when, 24)].join("\n");
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** A DOT string literal. */
const quoted = (text: string) =>
  `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n")}"`;

/** The lifecycle as a Graphviz graph, top to bottom. */
export function lifecycleDot(lifecycle: Lifecycle): string {
  const lines = [
    `digraph ${quoted(lifecycle.resource)} {`,
    `  graph [rankdir=TB, nodesep=0.9, ranksep=0.7, pad=0.3, fontname=${quoted(FONT)}, bgcolor="transparent", id=${quoted(`lifecycle-${lifecycle.collection}`)}];`,
    `  node [shape=box, style="rounded,filled", fillcolor="#f8fafc", color="#334155", fontname=${quoted(FONT)}, fontsize=13, margin="0.18,0.08"];`,
    `  edge [fontname=${quoted(FONT)}, fontsize=10, arrowsize=0.7];`,
  ];
  for (const state of lifecycle.states) {
    lines.push(`  ${quoted(state)} [id=${quoted(stateId(state))}, class="state"];`);
  }
  for (const initial of lifecycle.initial) {
    const start = `start-${initial.state}`;
    lines.push(
      `  ${quoted(start)} [shape=circle, width=0.16, label="", style=filled, fillcolor="#0f172a", color="#0f172a", id=${quoted(`start-${initial.state}`)}, class="start"];`,
      `  ${quoted(start)} -> ${quoted(initial.state)} [id=${quoted(initialId(initial.state))}, class=${quoted(`initial cause-${initial.cause}`)}, color=${quoted(CAUSE_COLOURS[initial.cause])}, fontcolor=${quoted(CAUSE_COLOURS[initial.cause])}, label=${quoted(transitionLabel(initial))}];`,
    );
  }
  for (const t of lifecycle.transitions) {
    const colour = CAUSE_COLOURS[t.cause];
    const style = t.onlyAsOutcome ? ', style="dashed"' : "";
    lines.push(
      `  ${quoted(t.from)} -> ${quoted(t.to)} [id=${quoted(transitionId(t.from, t.to))}, class=${quoted(`transition cause-${t.cause}`)}, color=${quoted(colour)}, fontcolor=${quoted(colour)}${style}, label=${quoted(transitionLabel(t))}];`,
    );
  }
  lines.push("}");
  return lines.join("\n");
}

/**
 * Each lifecycle as an SVG document (file name → text), without Graphviz's XML prolog, DOCTYPE
 * and comments, with a title and description for screen readers.
 */
export async function lifecycleSvgs(
  lifecycles: readonly Lifecycle[],
): Promise<Map<string, string>> {
  const viz = await instance();
  const svgs = new Map<string, string>();
  for (const lifecycle of lifecycles) {
    const rendered = viz.renderString(lifecycleDot(lifecycle), { format: "svg" });
    svgs.set(diagramFile(lifecycle), cleanSvg(rendered, lifecycle));
  }
  return svgs;
}

function cleanSvg(svg: string, lifecycle: Lifecycle): string {
  const start = svg.indexOf("<svg");
  if (start < 0) throw new Error(`Graphviz drew no <svg> for the ${lifecycle.resource} lifecycle`);
  const body = svg
    .slice(start)
    .replace(/<!--[\s\S]*?-->\n?/g, "")
    .replace(/ xmlns:xlink="[^"]*"/, "");
  const title = `The ${lifecycle.resource} lifecycle of the sandbox`;
  const description = `States: ${lifecycle.states.join(", ")}.`;
  return `${body
    .replace(
      /<svg\b([^>]*)>/,
      `<svg$1 role="img" aria-labelledby="title desc">\n<title id="title">${escapeXml(title)}</title>\n<desc id="desc">${escapeXml(description)}</desc>`,
    )
    .trimEnd()}\n`;
}

function escapeXml(text: string) {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

// Compares the servers a spec lists. A server URL with variables stands for every URL it can
// expand to: a variable with an `enum` takes those values, one without takes any value.

import type { Report } from "./types.ts";

export type Server = {
  url: string;
  variables?: Record<string, { default: string; enum?: string[] }>;
};

export function compareServers(
  context: { report: Report },
  before: Server[] = [],
  after: Server[] = [],
): void {
  const headPatterns = after.map(templatePattern);
  const basePatterns = before.map(templatePattern);
  for (const server of before) {
    for (const url of expansions(server)) {
      if (headPatterns.some((pattern) => pattern.test(url))) continue;
      context.report.add("server-removed", "servers", url, `server ${url} no longer listed`);
    }
  }
  for (const server of after) {
    const url = withDefaults(server);
    if (!basePatterns.some((pattern) => pattern.test(url))) {
      context.report.add("server-added", "servers", server.url, `server ${server.url} listed`);
    }
  }
}

/** The URL a client gets when it keeps every variable's default. */
function withDefaults(server: Server): string {
  return server.url.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => server.variables?.[name]?.default ?? "",
  );
}

/** Every URL a server's enumerated variables allow (a free variable keeps its default). */
function expansions(server: Server): string[] {
  let urls = [server.url];
  for (const [name, variable] of Object.entries(server.variables ?? {})) {
    const values = variable.enum ?? [variable.default];
    urls = urls.flatMap((url) => values.map((value) => url.replaceAll(`{${name}}`, value)));
  }
  return urls;
}

function templatePattern(server: Server): RegExp {
  const source = server.url
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return escapeRegExp(part);
      const values = server.variables?.[name]?.enum;
      return values ? `(?:${values.map(escapeRegExp).join("|")})` : ".*";
    })
    .join("");
  return new RegExp(`^${source}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// A partner's readiness report: its counters, its webhooks' topics and its documents read in one
// transaction, the profile's checks decided on them. Nothing of another partner's is in reach of
// the transaction, and the report names no key.
import type { ReadinessReport } from "./controls.js";
import { evaluate } from "./evaluate.js";
import { type Evidence, sandboxEvidence } from "./evidence.js";
import { defaultProfile, type Profile } from "./profile.js";
import { PROFILE_CONTEXT } from "./profile-context.js";
import type { ReportRows } from "./readiness-rows.js";

/** The evidence in the partner's part of the store. */
async function evidenceOf(tx: ReportRows): Promise<Evidence> {
  const counts = await tx.counts();
  const subscribed = new Set<string>();
  for (const { resource } of await tx.list("webhooks")) {
    if (resource.enabled !== true || !Array.isArray(resource.topics)) continue;
    for (const topic of resource.topics) if (typeof topic === "string") subscribed.add(topic);
  }
  const documents = (await tx.list("documents")).map((stored) => stored.resource.id);
  return sandboxEvidence(counts, subscribed, documents);
}

export function reportOf(partnerId: string, profile: Profile, evidence: Evidence): ReadinessReport {
  const { ready, checks } = evaluate(profile, evidence);
  return {
    partner_id: partnerId,
    ready,
    profile: { name: profile.name, version: profile.version },
    checks,
    coverage: evidence.coverage,
  };
}

export async function readinessReport(
  tx: ReportRows,
  partnerId: string,
  profile: Profile,
): Promise<ReadinessReport> {
  return reportOf(partnerId, profile, await evidenceOf(tx));
}

/** The default profile's name, version and checks, each with how it is decided (for the docs). */
export function defaultChecklist(): {
  name: string;
  version: string;
  checks: { id: string; title: string; how: string }[];
} {
  const profile = defaultProfile(PROFILE_CONTEXT);
  const { checks } = evaluate(profile, sandboxEvidence([], new Set(), []));
  return {
    name: profile.name,
    version: profile.version,
    checks: checks.map(({ id, title, how }) => ({ id, title, how })),
  };
}

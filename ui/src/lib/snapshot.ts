import type { ArmSnapshot } from "../bindings/ArmSnapshot";

/** Everything the snapshot recorded beside the skills, in one sentence. */
export function ranWithLong(s: ArmSnapshot): string {
  const reported = s.reported_models.join(", ") || "none";
  return (
    `Ran ${s.harness} ${s.harness_version} as ${s.user || "root"} with model ${s.model} (provider reported ${reported}) at ${s.provider_host}, ` +
    `temperature ${s.limits.temperature ?? "default"}, ${s.limits.max_turns} turns at most, ` +
    `image ${s.image_digest.slice(0, 19)}, task ${s.task_sha256.slice(0, 12)}`
  );
}
